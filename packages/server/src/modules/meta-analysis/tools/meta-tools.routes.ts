import { metaInputTables, simulateMetacalculation, statsServiceInfo, validateForMeta } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../../lib/service-deps.js';
import { route } from '../../../plugins/contract-routes.js';
import * as service from './meta-tools.service.js';

/** The curators' meta-analysis tools: validation, simulation, input tables, statistics service status. */
export function registerMetaToolRoutes(app: FastifyInstance): void {
  route(app, validateForMeta, async ({ body }) => service.validateForMeta(serviceDeps(app), body.ids));

  route(app, simulateMetacalculation, async ({ body }) =>
    service.simulateMeta(serviceDeps(app), body.rows, body.seed),
  );

  route(app, statsServiceInfo, async ({ request }) => {
    const e = service.statsServiceOf(serviceDeps(app), `${request.protocol}://${request.host}`);
    return { status_url: e.statusUrl, metacalculation_url: e.metacalculationUrl, external: e.external };
  });

  route(app, metaInputTables, async ({ params }) => service.inputTables(serviceDeps(app), params.analyte_id));
}
