import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { BVDB_VERSION, type Access } from '@bvdb/contract';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { trustProxyOption, type Config } from './config.js';
import type { Database } from './db/client.js';
import { registerCrossSiteGuard } from './plugins/csrf.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerInputGuards } from './plugins/input-guards.js';
import { RecentRequests } from './lib/recent-requests.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerRateLimits } from './plugins/rate-limits.js';
import { registerComputationGate } from './plugins/computation-gate.js';
import { registerWebApp } from './plugins/web-app.js';
import type { PageRecordLookups } from './plugins/page-records.js';
import { registerFastReads } from './plugins/fast-reads.js';
import { registerRequestsInFlight } from './plugins/requests-in-flight.js';
import type { FastReads } from './lib/fast-reads.js';
import { ResponseCache } from './lib/response-cache.js';
import { findAnalyte, registerAnalyteRoutes } from './modules/analytes/index.js';
import { registerApplicationsRoutes } from './modules/applications/index.js';
import {
  appraisalExists,
  AppraisalService,
  blindViewFor,
  registerAppraisalRoutes,
} from './modules/appraisals/index.js';
import { registerAuditRoutes } from './modules/audit/index.js';
import {
  registerAuth,
  registerAuthRoutes,
  registerUserRoutes,
  SESSION_COOKIE,
} from './modules/auth/index.js';
import { registerBackupRoutes } from './modules/backup/index.js';
import { registerChangeRoutes } from './modules/changes/index.js';
import { registerChangeVerdictRoutes, registerFhirRoutes } from './modules/change-verdict/index.js';
import { registerCitationRoutes } from './modules/citations/index.js';
import { registerContentRoutes } from './modules/content/index.js';
import { registerDatasetRawDataRoutes } from './modules/dataset-raw-data/index.js';
import { registerDatasetUploadRoutes } from './modules/dataset-upload/index.js';
import {
  findVisibleDataset,
  registerDatasetRoutes,
  registerDatasetWriteRoutes,
} from './modules/datasets/index.js';
import { registerEstimateRoutes } from './modules/estimates/index.js';
import { registerEstimationRoutes } from './modules/estimations/index.js';
import { registerIndirectRoutes } from './modules/indirect/index.js';
import { registerExportRoutes } from './modules/exports/index.js';
import { registerHealthRoutes } from './modules/health/index.js';
import { registerJobRoutes } from './modules/jobs/index.js';
import { registerLookupRoutes } from './modules/lookups/index.js';
import { registerMailingListRoutes } from './modules/mailing-list/index.js';
import { keptMenuExists, registerMenuRoutes } from './modules/menu/index.js';
import {
  registerMetaFacetRoutes,
  registerMetaRoutes,
  registerMetaToolRoutes,
  registerStatsRoutes,
} from './modules/meta-analysis/index.js';
import { RecomputeWorker } from './modules/recompute-queue/index.js';
import {
  findReference,
  registerReferenceRoutes,
  registerReferenceWriteRoutes,
} from './modules/references/index.js';
import { registerReleaseRoutes } from './modules/releases/index.js';
import { registerSearchRoutes } from './modules/search/index.js';
import { registerUnitRoutes } from './modules/units/index.js';
import { DownloadBudget } from './lib/download-budget.js';
import { CatalogueFiles } from './lib/catalogue-files.js';
import type { ChangeListener } from './db/change-listener.js';
import { registerChangeSignal } from './plugins/change-signal.js';
import { registerMetrics } from './plugins/metrics.js';

export interface AppDeps {
  config: Config;
  database: Database;
  /**
   * The recompute's worker (main.ts starts it); when left out (tests), the app makes one that is
   * not started: writes record their requests the same way, and `settle()` drains them.
   */
  recompute?: RecomputeWorker;
  /** The read cache (main.ts makes it first, for the worker to invalidate); the app makes one when left out. */
  cache?: ResponseCache;
  /** Where the log lines go (tests read them: nothing of an uploaded extract may appear); stdout by default. */
  logStream?: { write(line: string): void };
}

export interface RegisteredRoute {
  method: string;
  url: string;
  access: Access | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps & {
      recompute: RecomputeWorker;
      cache: ResponseCache;
      downloads: DownloadBudget;
      catalogue: CatalogueFiles;
      /** Other processes' writes, pushed (PostgreSQL only; plugins/change-signal.ts). */
      changes?: ChangeListener;
    };
    /** Kept public answers the fast read path replays (plugins/fast-reads.ts). */
    fastReads: FastReads;
    /** The ids of the requests started last, for the last-resort fault log. */
    recentRequests: RecentRequests;
    /** Every route with its declared access, for the test that walks them all. */
    registeredRoutes: RegisteredRoute[];
    /**
     * `draining`: set on SIGTERM (main.ts): `/readyz` answers 503 while the rest is still served.
     * `warmingUp`: during the start's warm-up (decision 072), why `/readyz` is not ready yet.
     * `afterReady`: what a module warms once the server is ready (threads started, tables loaded),
     * never before: started by `startAfterReady` (main.ts), as the upkeep is (decision 090).
     */
    lifecycle: {
      draining: boolean;
      warmingUp: (() => string | null) | null;
      afterReady: (() => Promise<void>)[];
    };
  }
}

/**
 * Whether a record a page is about exists, asked of each record's module (the web app's port,
 * plugins/page-records.ts; decision 077).
 */
const pageRecords: PageRecordLookups = {
  measurand: async (db, id) => (await findAnalyte(db, id)) !== undefined,
  reference: async (db, id) => (await findReference(db, id)) !== undefined,
  dataset: async (db, id, seesUnpublished) =>
    (await findVisibleDataset(db, id, seesUnpublished)) !== undefined,
  appraisal: appraisalExists,
  keptMenu: keptMenuExists,
};

export const OPENAPI_INFO = {
  title: 'bvdb — Biological Variation database API',
  version: BVDB_VERSION,
  description:
    'Public read API of the Biological Variation database: measurands, datasets (BIVAC-appraised BV ' +
    'estimates), references, matrices and meta-analysis results, plus the statistics service. ' +
    'Read endpoints are open (CORS) and send ETags. Every route is rate limited per client IP by its cost ' +
    '(reads, heavy work, writes, sign-in; 429 with Retry-After).',
};

/** Builds the whole HTTP application without listening, so tests can `inject` into it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const recentRequests = new RecentRequests();
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: {
              paths: [
                'req.headers.cookie',
                'req.headers.authorization',
                'req.headers["x-csrf-token"]',
                'res.headers["set-cookie"]',
                '*.password',
                '*.current_password',
                '*.password_confirmation',
                '*.token',
              ],
              censor: '[redacted]',
            },
            ...(deps.logStream ? { stream: deps.logStream } : {}),
          },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(config),
    genReqId: recentRequests.genReqId,
  });
  app.decorate('recentRequests', recentRequests);
  app.decorate('lifecycle', { draining: false, warmingUp: null, afterReady: [] });
  const cache = deps.cache ?? ResponseCache.forConfig(config);
  const catalogue = CatalogueFiles.forConfig(config, cache);
  app.decorate('deps', {
    ...deps,
    recompute: deps.recompute ?? new RecomputeWorker(deps.database, () => cache.invalidate()),
    cache,
    downloads: new DownloadBudget(config.DOWNLOADS_MB_PER_SECOND * 1e6),
    catalogue,
  });
  app.addHook('onClose', async () => catalogue.close());
  registerChangeSignal(app);
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    for (const method of methods) routes.push({ method, url: r.url, access: r.config?.access });
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerSecurityHeaders(app);
  registerInputGuards(app);
  // An error names its request, and a client that sent an id gets back the one used (its own, or
  // ours when its was unsafe); a success to a client that sent none carries no id (decision 089;
  // the fast read path does the same).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode >= 400 || request.headers['x-request-id'] !== undefined)
      void reply.header('x-request-id', request.id);
    done(null, payload);
  });

  // CSV and plain text bodies reach the statistics endpoint as strings.
  await app.register(formbody);
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string' }, (_req, text, done) =>
    done(null, text),
  );

  // JSON answers and the app shell compressed on the fly (a fast brotli level: these are small and
  // dynamic); the hashed assets are served pre-compressed from the build (plugins/web-app.ts).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(cookie);
  await app.register(cors, { origin: true, methods: ['GET', 'HEAD'], credentials: false });
  registerCrossSiteGuard(app);
  // Before every route, so each one (pages and static files too) is counted by its cost class.
  const rateCounters = await registerRateLimits(app, config);
  registerComputationGate(app, config.RATE_LIMIT_CONCURRENT_COMPUTATIONS);
  registerMetrics(app);
  // What background work waits for a quiet moment of (decision 114).
  registerRequestsInFlight(app);
  // Kept public answers replayed before Fastify's request handling (decision 041).
  app.decorate('fastReads', registerFastReads(app, rateCounters, SESSION_COOKIE));
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: OPENAPI_INFO,
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  await registerAuth(app);
  registerHealthRoutes(app);
  registerAuthRoutes(app);
  registerLookupRoutes(app);
  registerAnalyteRoutes(app);
  registerReferenceRoutes(app);
  registerDatasetRoutes(app);
  registerDatasetWriteRoutes(app, (deps) => new AppraisalService(deps));
  registerMetaRoutes(app);
  registerEstimateRoutes(app);
  registerChangeRoutes(app);
  registerSearchRoutes(app);
  registerStatsRoutes(app);
  registerExportRoutes(app);
  registerApplicationsRoutes(app);
  registerReleaseRoutes(app);
  registerJobRoutes(app);
  registerMetaToolRoutes(app);
  registerMetaFacetRoutes(app);
  registerContentRoutes(app);
  registerAuditRoutes(app, async (db, userId) => (await blindViewFor(db, userId)).auditEntryIds);
  await app.register(registerReferenceWriteRoutes);
  registerUnitRoutes(app);
  registerMailingListRoutes(app);
  await app.register(registerBackupRoutes);
  await app.register(registerDatasetUploadRoutes);
  await app.register(registerEstimationRoutes);
  await app.register(registerIndirectRoutes);
  await app.register(registerDatasetRawDataRoutes);
  // The change verdict finds tests by the menu's kept catalogue: registered beside it.
  await app.register(async (scope) => {
    const { tests } = await registerMenuRoutes(scope);
    const { threads } = registerChangeVerdictRoutes(scope, tests);
    await registerFhirRoutes(scope, tests, threads);
  });
  registerCitationRoutes(app);
  registerUserRoutes(app);
  registerAppraisalRoutes(app);
  await registerWebApp(app, { sessionCookie: SESSION_COOKIE, pageRecords });
  return app;
}

/**
 * The modules' warm-ups once the server is ready (issue 45: a first change-verdict batch finds its
 * threads started and UCUM loaded), in the background: a failure is logged, never the end of the
 * start. Resolves when all have ended (the bench waits for it; main.ts does not).
 */
export async function startAfterReady(app: FastifyInstance): Promise<void> {
  await Promise.all(
    app.lifecycle.afterReady.map((warm) =>
      warm().catch((err: unknown) =>
        app.log.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'a warm-up after ready failed',
        ),
      ),
    ),
  );
}
