import { metacalculation, statsHealth } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../../plugins/contract-routes.js';
import { parseStatsRows } from './stats-rows.js';
import { runMetacalculation } from './stats.service.js';

/** The built-in statistics service, the same shape as the outside R service (STATS_URL). */
export function registerStatsRoutes(app: FastifyInstance): void {
  route(app, metacalculation, async ({ body, query }) =>
    runMetacalculation(parseStatsRows(body), query.seed),
  );
  route(app, statsHealth, async ({ reply }) => reply.type('text/plain; charset=utf-8').send('OK'));
}
