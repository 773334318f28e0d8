import {
  findMatrixConsolidations,
  getDiseasesOfDataset,
  getLookups,
  getMatrix,
  getStateOfWellBeing,
  listMatrices as listMatricesRoute,
} from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedJson } from '../../lib/cached-json.js';
import { route } from '../../plugins/contract-routes.js';
import { findVisibleDataset } from '../datasets/datasets.service.js';
import * as repo from './lookups.repository.js';

export function registerLookupRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;

  route(app, listMatricesRoute, async ({ request, reply }) =>
    cachedJson(request, reply, async () => ({
      matrices: (await repo.listMatrices(db())).map(repo.presentMatrix),
    })),
  );

  route(app, getMatrix, async ({ params }) => {
    const m = await repo.findMatrix(db(), params.id);
    if (!m) throw notFound(`Matrix ${params.id}`);
    return { matrix: repo.presentMatrix(m) };
  });

  route(app, findMatrixConsolidations, async ({ query }) => {
    const found = await repo.findMatricesByIds(db(), query.ids);
    const missing = query.ids.filter((id) => !found.some((m) => m.id === id));
    if (missing.length > 0) throw notFound(`Matrix ${missing.join(', ')}`);
    const consolidation = await repo.findConsolidationForMatrices(db(), query.ids);
    const first = found[0]!;
    const matrix =
      found.length === 1
        ? { matrix_expansion: first.matrixExpansion, matrix_explanation: first.matrixExplanation }
        : {
            matrix_expansion: consolidation?.name ?? found.map((m) => m.matrixExpansion).join(', '),
            matrix_explanation: `Consolidation of ${found.map((m) => m.matrixExpansion).join(', ')}`,
          };
    return { matrix, consolidation };
  });

  route(app, getStateOfWellBeing, async ({ params }) => {
    const s = await repo.findStateOfWellBeing(db(), params.id);
    if (!s) throw notFound(`State of well-being ${params.id}`);
    return {
      state_of_well_being: {
        id: s.id,
        state_of_well_being_descriptor_expansion: s.expansion,
        state_of_well_being_descriptor_explanation: s.explanation,
      },
    };
  });

  route(app, getDiseasesOfDataset, async ({ params, request }) => {
    const dataset = await findVisibleDataset(db(), params.id, request.user != null);
    if (!dataset) throw notFound(`Dataset ${params.id}`);
    return { diseases: await repo.listDiseasesOfDataset(db(), params.id) };
  });

  route(app, getLookups, async ({ request, reply }) =>
    cachedJson(request, reply, () => repo.listAllLookups(db()), { varyByUser: false }),
  );
}
