import {
  getCounters,
  listMeasurands,
  listMetaCalculations,
  metaByAnalyte,
  metaByAnalyteMatrixType,
} from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { cachedCatalogue, cachedJson, serialiseFor } from '../../../lib/cached-json.js';
import { answerInSteps } from '../../../lib/contract-json.js';
import { mapInTurns } from '../../../lib/loop-turns.js';
import { serviceDeps } from '../../../lib/service-deps.js';
import { route, seesUnpublished } from '../../../plugins/contract-routes.js';
import { presentAnalyte } from '../../analytes/index.js';
import { presentHeadlineMetas, presentLegacyMeta, presentMeasurandMetas } from './meta-results.presenter.js';
import { registerMetaV1Routes } from './meta-results-v1.routes.js';
import * as service from './meta-results.service.js';

const pageOf = (q: { limit?: number | undefined; offset?: number | undefined }) => ({
  ...(q.limit !== undefined ? { limit: q.limit } : {}),
  ...(q.offset !== undefined ? { offset: q.offset } : {}),
});

/** The public reads of the stored meta-analysis results, and the home page's counters. */
export function registerMetaRoutes(app: FastifyInstance): void {
  route(app, getCounters, async ({ request, reply }) =>
    cachedJson(request, reply, async () => {
      const n = await service.countRecords(serviceDeps(app), seesUnpublished(request));
      return {
        meta_data: {
          total_bv_specifications: n.datasets,
          total_metas: n.metas,
          total_references: n.references,
        },
      };
    }),
  );

  // Legacy: one entry per measurand, the results of its headline matrix (decision 007).
  route(app, listMetaCalculations, async ({ query, request, reply }) => {
    const compute = async () => {
      const { items, total } = await service.listHeadlines(serviceDeps(app), pageOf(query));
      return {
        code: 'success' as const,
        total,
        // Presented a few hundred measurands a turn: 7,100 at once at 100× held the loop (issue 44.1).
        data: (
          await mapInTurns(
            items,
            (i) => ({ analyte: presentAnalyte(i.analyte), metas: presentHeadlineMetas(i.headline) }),
            500,
          )
        ).filter((e) => e.metas.length > 0),
      };
    };
    if (query.limit !== undefined || query.offset !== undefined)
      return cachedJson(request, reply, compute, { varyByUser: false });
    // Every measurand's headline: one kept file, the same for everyone (decision 039).
    return cachedCatalogue(
      request,
      reply,
      { type: 'application/json; charset=utf-8', compress: true },
      // Checked and written a few hundred entries at a time (issue 44.1).
      async function* () {
        yield* answerInSteps(
          (value) => serialiseFor(reply, value),
          await compute(),
          'data',
          listMetaCalculations.responses[200].shape.data.element,
        );
      },
    );
  });

  route(app, listMeasurands, async ({ request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const { items } = await service.listHeadlines(serviceDeps(app));
        return {
          data: items
            .map((i) => ({
              analyte: { id: i.analyte.id, display_name: i.analyte.displayName },
              metas: presentMeasurandMetas(i.headline),
            }))
            .filter((e) => e.metas.length > 0),
        };
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
              metas: results.map((r) => presentLegacyMeta(r.row, r.links)),
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

  registerMetaV1Routes(app);
}
