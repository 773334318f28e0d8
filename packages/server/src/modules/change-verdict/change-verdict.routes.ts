import { v1ChangeVerdict, v1ChangeVerdictBatch } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../plugins/contract-routes.js';
import type { TestLookup } from '../menu/index.js';
import { presentChangeVerdict } from './change-verdict.presenter.js';
import { judgeChange } from './change-verdict.service.js';
import { batchTable, judgeBatch } from './change-verdict-batch.js';
import { buildTableOffThread } from '../exports/index.js';

/**
 * The change verdict laboratory systems call (issue 45.4): public, nothing stored, answered from
 * the menu's kept catalogue (no database read when nothing changed).
 */
export function registerChangeVerdictRoutes(app: FastifyInstance, tests: TestLookup): void {
  route(app, v1ChangeVerdict, async ({ query }) =>
    presentChangeVerdict(query, await judgeChange(tests, query)),
  );

  // Up to 10,000 pairs (issue 45.5); CSV out, written on the export thread, when the caller accepts it.
  route(app, v1ChangeVerdictBatch, async ({ query, body, request, reply }) => {
    const batch = await judgeBatch(tests, body, query);
    if (!/\btext\/csv\b/i.test(request.headers.accept ?? '')) return batch;
    const csv = await buildTableOffThread('csv', batchTable(batch));
    return reply.type('text/csv; charset=utf-8').send(csv);
  });
}
