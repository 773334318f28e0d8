import { getCounters, listMetaCalculations, metaByAnalyte, metaByAnalyteMatrixType } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { cachedJson } from '../../../lib/cached-json.js';
import { serviceDeps } from '../../../lib/service-deps.js';
import { route } from '../../../plugins/contract-routes.js';
import { presentMeta, presentMetaListItem } from './meta-results.presenter.js';
import * as service from './meta-results.service.js';

/** The public reads of the stored meta-analysis results, and the home page's counters. */
export function registerMetaRoutes(app: FastifyInstance): void {
  route(app, getCounters, async ({ request, reply }) =>
    cachedJson(request, reply, async () => {
      const n = await service.countRecords(serviceDeps(app), request.user != null);
      return {
        meta_data: {
          total_bv_specifications: n.datasets,
          total_metas: n.metas,
          total_references: n.references,
        },
      };
    }),
  );

  route(app, listMetaCalculations, async ({ query, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const { rows, total } = await service.listMetaPage(serviceDeps(app), {
          ...(query.limit !== undefined ? { limit: query.limit } : {}),
          ...(query.offset !== undefined ? { offset: query.offset } : {}),
        });
        return { code: 'success' as const, total, data: rows.map(presentMetaListItem) };
      },
      { varyByUser: false },
    ),
  );

  route(app, metaByAnalyte, async ({ params, request, reply }) => {
    const analyte = await service.requireAnalyte(serviceDeps(app), params.id);
    return cachedJson(
      request,
      reply,
      async () => {
        const results = await service.listResultsOfAnalyte(serviceDeps(app), params.id);
        return {
          data: [
            {
              analyte: { id: analyte.id, display_name: analyte.displayName },
              metas: results.map((r) => presentMeta(r.row, r.links)),
            },
          ],
        };
      },
      { varyByUser: false },
    );
  });

  route(app, metaByAnalyteMatrixType, async ({ params }) => ({
    metacalculations: await service.listMetasOfMatrixType(
      serviceDeps(app),
      params.analyte,
      params.matrix,
      params.type,
    ),
  }));
}
