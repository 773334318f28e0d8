import { metaInputTables, simulateMetacalculation, statsServiceInfo, validateForMeta } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../plugins/contract-routes.js';
import { calculateMeta, statsEndpoints } from '../stats/stats-client.js';
import { inputTables, validateForMeta as validate } from './meta-tools.service.js';

/** The curators' meta-analysis tools: validation, simulation, input tables, statistics service status. */
export function registerMetaToolRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;
  const statsUrl = () => app.deps.config.STATS_URL;

  route(app, validateForMeta, async ({ body }) => validate(db(), body.ids));

  route(app, simulateMetacalculation, async ({ body }) => calculateMeta(statsUrl(), body.rows, body.seed));

  route(app, statsServiceInfo, async ({ request }) => {
    const e = statsEndpoints(statsUrl(), `${request.protocol}://${request.host}`);
    return { status_url: e.statusUrl, metacalculation_url: e.metacalculationUrl, external: e.external };
  });

  route(app, metaInputTables, async ({ params }) => inputTables(db(), params.analyte_id));
}
