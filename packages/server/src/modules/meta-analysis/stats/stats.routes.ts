import { metacalculation, statsHealth } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../../plugins/contract-routes.js';
import { calculateOffThread, checkStatsBodySize, createStatsPool } from './stats.service.js';
import { checkStatsBodyShape } from './stats-rows.js';

/**
 * The built-in statistics service, the same shape as the outside R service (STATS_URL). Parsing and
 * the bootstrap run on a small pool of worker threads (decision 017), never on the event loop.
 */
export function registerStatsRoutes(app: FastifyInstance): void {
  const pool = createStatsPool();
  app.addHook('onClose', () => pool.close());
  route(app, metacalculation, async ({ body, query, request }) => {
    checkStatsBodySize(Number(request.headers['content-length'] ?? 0), body);
    checkStatsBodyShape(body);
    return calculateOffThread(pool, body, query.seed);
  });
  route(app, statsHealth, async ({ reply }) => reply.type('text/plain; charset=utf-8').send('OK'));
}
