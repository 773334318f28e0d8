import {
  findMatrixConsolidations,
  getLookups,
  getMatrix,
  getStateOfWellBeing,
  listMatrices,
} from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedJson } from '../../lib/cached-json.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import * as lookups from './lookups.service.js';

/** These answers read only the lookup tables: catalogue writes leave them cached. */
const LOOKUPS_ONLY = { scopes: ['lookups'] } as const;

export function registerLookupRoutes(app: FastifyInstance): void {
  const { db } = serviceDeps(app);

  route(app, listMatrices, async ({ request, reply }) =>
    cachedJson(request, reply, async () => ({ matrices: await lookups.listMatrices(db) }), LOOKUPS_ONLY),
  );

  route(app, getMatrix, async ({ params }) => {
    const matrix = await lookups.getMatrix(db, params.id);
    if (!matrix) throw notFound(`Matrix ${params.id}`);
    return { matrix };
  });

  route(app, findMatrixConsolidations, async ({ query }) => lookups.describeMatrices(db, query.ids));

  route(app, getStateOfWellBeing, async ({ params }) => {
    const state = await lookups.getStateOfWellBeing(db, params.id);
    if (!state) throw notFound(`State of well-being ${params.id}`);
    return { state_of_well_being: state };
  });

  route(app, getLookups, async ({ request, reply }) =>
    cachedJson(request, reply, () => lookups.listAllLookups(db), { varyByUser: false, ...LOOKUPS_ONLY }),
  );
}
