import { v1EstimateHistory } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { cachedJson } from '../../lib/cached-json.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { presentEstimateIdentity, presentVersion } from './estimates.presenter.js';
import { getHistory } from './estimates.service.js';

/** The estimates' history (issue 29.4, decision 052): a cached public read, rebuilt after any data change. */
export function registerEstimateRoutes(app: FastifyInstance): void {
  route(app, v1EstimateHistory, async ({ params, query, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const { estimate, versions, total } = await getHistory(
          serviceDeps(app).db,
          params.id,
          query.limit,
          query.offset,
        );
        return {
          estimate: presentEstimateIdentity(estimate),
          meta: {
            total,
            limit: query.limit,
            offset: query.offset,
            next_offset: query.offset + query.limit < total ? query.offset + query.limit : null,
          },
          data: versions.map(presentVersion),
        };
      },
      { varyByUser: false },
    ),
  );
}
