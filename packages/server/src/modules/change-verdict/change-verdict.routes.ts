import { facetSelectionOf, RCV_BATCH_MAX_BYTES, v1ChangeVerdict, v1ChangeVerdictBatch } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { populationOf } from '../meta-analysis/index.js';
import type { TestLookup } from '../menu/index.js';
import { createVerdictPool, VerdictThreads } from './change-verdict-pool.js';
import { presentChangeVerdict } from './change-verdict.presenter.js';
import { judgeChange } from './change-verdict.service.js';

/**
 * The change verdict laboratory systems call (issue 45.4): public, nothing stored, answered from
 * the menu's kept catalogue (no database read when nothing changed); UCUM and batches on the
 * change-verdict threads (decision 092), which the FHIR operation shares.
 */
export function registerChangeVerdictRoutes(
  app: FastifyInstance,
  tests: TestLookup,
): { threads: VerdictThreads } {
  const pool = createVerdictPool();
  app.addHook('onClose', () => pool.close());
  const threads = new VerdictThreads(pool);
  // Started and loaded once the server is ready, never before (the start is not slowed: decision 090).
  // The menu's kept catalogue, by which tests are found, is read then too.
  app.lifecycle.afterReady.push(async () => {
    await Promise.all([threads.warmUp(), tests.warmUp()]);
  });

  route(app, v1ChangeVerdict, async ({ query }) => {
    // A population (issue 47.3): an unknown facet value is a 400 naming the allowed ones.
    const deps = serviceDeps(app);
    const population = await populationOf(deps.db, facetSelectionOf(query));
    return presentChangeVerdict(
      query,
      await judgeChange(tests, query, threads.checkUnits, population ? { population, deps } : undefined),
    );
  });

  // Up to 10,000 pairs (issue 45.5), read, judged and written (JSON, or CSV when the caller accepts
  // it) on a change-verdict thread; only each distinct test is found on the event loop. The body
  // stays text here (a JSON body too: parsed, checked and cloned in the thread, not on the loop).
  void app.register(async (scope) => {
    scope.removeContentTypeParser(['application/json', 'text/csv', 'text/plain']);
    scope.addContentTypeParser(
      ['application/json', 'text/csv', 'text/plain'],
      { parseAs: 'string' },
      (_request, text, done) => done(null, text),
    );
    route(
      scope,
      v1ChangeVerdictBatch,
      async ({ query, body, request, reply }) => {
        const json = /\bjson\b/i.test(request.headers['content-type'] ?? '');
        const csv = /\btext\/csv\b/i.test(request.headers.accept ?? '');
        // A population for every pair (issue 47.3): an unknown facet value is a 400 before any work.
        const deps = serviceDeps(app);
        const population = await populationOf(deps.db, facetSelectionOf(query));
        // The scope's parsers keep every body as text; the contract's JSON shape is checked in the thread.
        const text = await threads.judgeBatch(
          tests,
          { text: typeof body === 'string' ? body : JSON.stringify(body), json },
          { probability: query.probability, direction: query.direction },
          csv ? 'csv' : 'json',
          population ? { population, deps } : undefined,
        );
        return reply.type(csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8').send(text);
      },
      { bodyLimit: RCV_BATCH_MAX_BYTES },
    );
  });
  return { threads };
}
