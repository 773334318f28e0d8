import { v1MeasurandFacets } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { cachedJson } from '../../../lib/cached-json.js';
import { serviceDeps } from '../../../lib/service-deps.js';
import { route } from '../../../plugins/contract-routes.js';
import { facetsOfMeasurand } from './meta-facets.service.js';

/** What the facet answers read: the datasets, their lookups and the measurand (never the stored results). */
export const FACET_SCOPES = ['analytes', 'datasets', 'lookups'] as const;

/** `GET /api/v1/measurands/{id}/facets` (issue 47). */
export function registerMetaFacetRoutes(app: FastifyInstance): void {
  route(app, v1MeasurandFacets, async ({ params, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const f = await facetsOfMeasurand(serviceDeps(app).db, params.id);
        return {
          analyte: { id: f.analyte.id, display_name: f.analyte.displayName },
          datasets: f.datasets,
          facets: f.facets.map((c) => ({
            facet: c.facet,
            label: c.label,
            values: c.values.map((v) => ({ value: v.value, label: v.label, datasets: v.datasets })),
            unknown: c.unknown,
          })),
        };
      },
      { varyByUser: false, scopes: FACET_SCOPES },
    ),
  );
}
