import * as contract from '@bvdb/contract';
import type { RouteDef } from '@bvdb/contract';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { RateCounters, rateLimitStoreOf } from '../lib/rate-counters.js';

/**
 * What a request costs the server, which decides its rate limit (per client address, per minute):
 * - `read`: cheap public reads — answered from the read cache or one record by id, the health checks,
 *   the pages and the static files. Generous: a bulk consumer's full pass over the catalogue fits.
 * - `heavy`: uncached or CPU-heavy work — the statistics service, the spreadsheet exports, article PDFs.
 * - `write`: anything that stores something (signed-in writes and the anonymous mailing-list subscribe).
 * - `sign-in`: password checks (sign-in, change password).
 * Each class has its own counter, so a flood of one kind never uses up another's allowance.
 */
export type RouteCost = 'read' | 'heavy' | 'write' | 'sign-in';

type Contract = typeof contract;
type RouteName = { [K in keyof Contract]: Contract[K] extends RouteDef ? K : never }[keyof Contract];

/**
 * Every route of the contract chooses its class here: the type lists every exported route, so a new
 * route does not compile until it is added (docs/decisions/020-rate-limits-by-cost.md).
 */
export const ROUTE_COSTS: Record<RouteName, RouteCost> = {
  // Health, session and site information.
  healthz: 'read',
  readyz: 'read',
  getSession: 'read',
  getSiteInfo: 'read',
  getContentPage: 'read',
  // The public catalogue: cached per data generation, or one record by id.
  autocomplete: 'read',
  searchByAnalyte: 'read',
  searchById: 'read',
  getAnalyte: 'read',
  getMeasurandNames: 'read',
  getMeasurandCodes: 'read',
  updateMeasurandNames: 'write',
  updateMeasurandCodes: 'write',
  exportMeasurandCodes: 'read',
  previewMeasurandCodesImport: 'heavy',
  importMeasurandCodes: 'write',
  listAnalytesWithCounts: 'read',
  listReferences: 'read',
  getReference: 'read',
  listDatasets: 'read',
  getDataset: 'read',
  datasetsByMeasurand: 'read',
  datasetsOfAnalyte: 'read',
  datasetsOfReference: 'read',
  specsForAnalytes: 'read',
  getCounters: 'read',
  listMetaCalculations: 'read',
  metaByAnalyte: 'read',
  metaByAnalyteMatrixType: 'read',
  listMatrices: 'read',
  getMatrix: 'read',
  findMatrixConsolidations: 'read',
  getStateOfWellBeing: 'read',
  getDiseasesOfDataset: 'read',
  getLookups: 'read',
  // Signed-in reads: one record or one short list each.
  getAuditHistory: 'read',
  getDatasetForm: 'read',
  getQueueJob: 'read',
  listQueueJobs: 'read',
  latestMetaJobs: 'read',
  listMailingListMembers: 'read',
  listUnits: 'read',
  manageByAnalyte: 'read',
  manageByReference: 'read',
  // Users and appraisals (decision 008): short lists and single records.
  listUsers: 'read',
  listMyAppraisals: 'read',
  getMyAppraisal: 'read',
  getAppraisalBoard: 'read',
  getAgreement: 'read',
  // Work that is computed per request, or large transfers.
  metacalculation: 'heavy',
  statsHealth: 'heavy',
  statsServiceInfo: 'heavy',
  simulateMetacalculation: 'heavy',
  validateForMeta: 'heavy',
  metaInputTables: 'heavy',
  exportByAnalyte: 'heavy',
  exportByReference: 'heavy',
  exportDatabase: 'heavy',
  getReferenceFile: 'heavy',
  getDatasetRawData: 'read',
  downloadDatasetRawData: 'heavy',
  createEstimation: 'heavy',
  // An indirect estimate from a laboratory's extract (decision 095): a thread for seconds; the list
  // of local estimates is a short read, keeping one a write.
  createIndirectEstimate: 'heavy',
  listLocalEstimates: 'read',
  createLocalEstimate: 'write',
  updateLocalEstimate: 'write',
  deleteLocalEstimate: 'write',
  getEstimationTemplate: 'read',
  createMenu: 'heavy',
  getMenuTemplate: 'read',
  // Kept menus (decision 064): opening one judges it again on today's data; saving stores it.
  getKeptMenu: 'heavy',
  listMyMenus: 'read',
  saveMenu: 'write',
  updateMenu: 'write',
  copyMenu: 'write',
  deleteMenu: 'write',
  // Writes.
  createUserRoute: 'write',
  updateUser: 'write',
  resetUserPassword: 'write',
  submitAppraisal: 'write',
  openAppraisal: 'write',
  assignAssessor: 'write',
  subscribeToMailingList: 'write',
  addMailingListMember: 'write',
  createDataset: 'write',
  updateDataset: 'write',
  deleteDataset: 'write',
  listAllDatasets: 'read',
  listMeasurands: 'read',
  v1ListDatasets: 'read',
  v1GetDataset: 'read',
  v1BulkDatasets: 'heavy',
  v1ListMeasurands: 'read',
  v1MetasOfMeasurand: 'read',
  v1MeasurandFacets: 'read',
  v1EstimateHistory: 'read',
  v1Changes: 'read',
  // Releases (decision 058): short lists; a file is a large transfer; publishing is a write.
  v1Releases: 'read',
  v1Release: 'read',
  v1ReleaseBuilds: 'read',
  v1ReleaseFile: 'heavy',
  v1PublishRelease: 'write',
  changesAtom: 'read',
  analyteChangesAtom: 'read',
  v1ListMetas: 'read',
  // The workbench table: a kept answer per query (cheap once built); its files are spreadsheets.
  v1Applications: 'read',
  v1ApplicationsFile: 'heavy',
  // One pair judged against the menu's kept catalogue: as cheap as a cached read.
  v1ChangeVerdict: 'read',
  // Up to 10,000 pairs judged: work in proportion to the batch.
  v1ChangeVerdictBatch: 'heavy',
  fhirRcv: 'read',
  fhirMetadata: 'read',
  fhirRcvDefinition: 'read',
  createReference: 'write',
  previewCitationFile: 'heavy',
  createCitationReferences: 'write',
  importDatabase: 'heavy',
  getDatasetTemplate: 'heavy',
  previewDatasetUpload: 'heavy',
  commitDatasetUpload: 'write',
  updateReference: 'write',
  deleteReference: 'write',
  uploadReferenceFile: 'write',
  deleteReferenceFile: 'write',
  uploadDatasetRawData: 'write',
  deleteDatasetRawData: 'write',
  createUnit: 'write',
  updateUnit: 'write',
  deleteUnit: 'write',
  updateContentPage: 'write',
  startMetaRecompute: 'write',
  signOut: 'write',
  // Password checks.
  signIn: 'sign-in',
  changePassword: 'sign-in',
};

/**
 * Computations: a request that holds a thread of a pool for seconds (an estimation, public and
 * uploaded). One client runs at most RATE_LIMIT_CONCURRENT_COMPUTATIONS of them at once
 * (plugins/computation-gate.ts, decision 086). The test menu is not one: its page posts the menu
 * again at each change of a choice, and a menu of 1,000 tests answers in about a second.
 */
export const ONE_AT_A_TIME: ReadonlySet<RouteName> = new Set<RouteName>([
  'createEstimation',
  'createIndirectEstimate',
]);
const ONE_AT_A_TIME_DEFS = new Set<unknown>([...ONE_AT_A_TIME].map((name) => contract[name]));

/** Whether a contract route is a computation, held to a few at once per client. */
export const isComputation = (def: RouteDef): boolean => ONE_AT_A_TIME_DEFS.has(def);

const COST_BY_DEF = new Map<unknown, RouteCost>(
  Object.entries(ROUTE_COSTS).map(([name, cost]) => [contract[name as RouteName], cost]),
);

/** The class of a contract route, looked up by its definition. */
export function costOfRoute(def: RouteDef): RouteCost {
  const cost = COST_BY_DEF.get(def);
  if (!cost) throw new Error(`Route ${def.method} ${def.path} has no cost class in plugins/rate-limits.ts`);
  return cost;
}

const DESCRIBED: Record<RouteCost, string> = {
  read: 'reads',
  heavy: 'computations, exports and file downloads',
  write: 'changes',
  'sign-in': 'sign-in attempts',
};

export function limitsOf(config: Config): Record<RouteCost, number> {
  return {
    read: config.RATE_LIMIT_PER_MINUTE,
    heavy: config.RATE_LIMIT_HEAVY_PER_MINUTE,
    write: config.RATE_LIMIT_WRITE_PER_MINUTE,
    'sign-in': config.RATE_LIMIT_SIGN_IN_PER_MINUTE,
  };
}

/** Routes outside the contract (pages, static files, the API docs) are cheap reads. */
const costOf = (request: FastifyRequest): RouteCost => request.routeOptions.config.cost ?? 'read';

/** The counter a request of class `cost` from `ip` counts against (the fast read path uses it too). */
export const rateLimitKey = (cost: RouteCost, ip: string): string => `${cost}|${ip}`;

/** The window of every class. */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * Whether an answer carries the X-RateLimit headers (decision 089): once at most half of the
 * window's allowance is left, and on every 429 (with Retry-After). A client far from its limit is
 * sent none of the three (they were a third of a small kept read's header bytes).
 */
export const nearLimit = (max: number, remaining: number): boolean => remaining * 2 <= max;

/** The three X-RateLimit headers as `writeHead`'s flat list (the fast read path's). */
export const rateLimitHeaders = (max: number, remaining: number, ttlMs: number): string[] => [
  'x-ratelimit-limit',
  String(max),
  'x-ratelimit-remaining',
  String(remaining),
  'x-ratelimit-reset',
  String(Math.ceil(ttlMs / 1000)),
];

/**
 * One policy for every route: a counter per client address and cost class, one-minute windows,
 * 429 with Retry-After and a message naming the limit once it is spent. Returns the counters, which
 * the fast read path (plugins/fast-reads.ts) counts its answers in.
 */
export async function registerRateLimits(app: FastifyInstance, config: Config): Promise<RateCounters> {
  const limits = limitsOf(config);
  const counters = new RateCounters();
  await app.register(rateLimit, {
    global: true,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    store: rateLimitStoreOf(counters),
    keyGenerator: (request) => rateLimitKey(costOf(request), request.ip),
    max: (request) => limits[costOf(request)],
    // Below the limit the headers go out only near it (decision 089, `nearLimit`): the onSend hook
    // below writes them; a 429 keeps all of them and Retry-After (the plugin's `addHeaders`).
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    onExceeding: (request, key) => {
      const max = limits[costOf(request)];
      const window = counters.peek(key);
      if (window && nearLimit(max, max - window.current))
        request.rateLimitLeft = { max, remaining: Math.max(0, max - window.current), ttl: window.ttl };
    },
    errorResponseBuilder: (request, ctx) => {
      const cost = costOf(request);
      const seconds = Math.max(1, Math.ceil(ctx.ttl / 1000));
      return Object.assign(
        new Error(
          `Too many ${DESCRIBED[cost]} from your address: at most ${ctx.max} a minute. Try again in ${seconds} s.`,
        ),
        { statusCode: 429 },
      );
    },
  });
  app.decorateRequest('rateLimitLeft', null);
  app.addHook('onSend', (request, reply, payload, done) => {
    const left = request.rateLimitLeft;
    if (left !== null && reply.statusCode !== 429)
      void reply
        .header('x-ratelimit-limit', left.max)
        .header('x-ratelimit-remaining', left.remaining)
        .header('x-ratelimit-reset', Math.ceil(left.ttl / 1000));
    done(null, payload);
  });
  return counters;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    cost?: RouteCost;
  }
  interface FastifyRequest {
    /** The allowance left when it is near the limit (decision 089), else null: no X-RateLimit headers. */
    rateLimitLeft: { max: number; remaining: number; ttl: number } | null;
  }
}
