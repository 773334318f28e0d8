import { v1ListMeasurands, v1ListMetas, v1MetasOfMeasurand } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { cachedJson } from '../../../lib/cached-json.js';
import { serviceDeps } from '../../../lib/service-deps.js';
import { route } from '../../../plugins/contract-routes.js';
import { presentMeta, presentMetaListItem, presentV1Headline } from './meta-results.presenter.js';
import * as service from './meta-results.service.js';

/** The meta-analysis part of the versioned API (`/api/v1`); shapes in packages/contract/src/v1.contract.ts. */
export function registerMetaV1Routes(app: FastifyInstance): void {
  const pageMeta = (q: { limit: number; offset: number }, total: number) => ({
    total,
    limit: q.limit,
    offset: q.offset,
    next_offset: q.offset + q.limit < total ? q.offset + q.limit : null,
  });
  const since = (s: string | undefined) => (s ? { updatedSince: new Date(s) } : {});

  route(app, v1ListMeasurands, async ({ query, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const { items, total } = await service.listHeadlines(serviceDeps(app), {
          limit: query.limit,
          offset: query.offset,
          ...since(query.updated_since),
        });
        return {
          meta: pageMeta(query, total),
          data: items.map(({ analyte, headline }) => {
            const stamps = [analyte.updatedAt, headline?.cvi?.meta.updatedAt, headline?.cvg?.meta.updatedAt];
            const latest = Math.max(...stamps.map((d) => d?.getTime() ?? 0));
            return {
              id: analyte.id,
              display_name: analyte.displayName,
              full_name: analyte.fullName,
              alternate_names: analyte.alternateNames,
              headline: presentV1Headline(headline),
              updated_at: new Date(latest).toISOString(),
            };
          }),
        };
      },
      { varyByUser: false },
    ),
  );

  route(app, v1MetasOfMeasurand, async ({ params, request, reply }) => {
    const analyte = await service.requireAnalyte(serviceDeps(app), params.id);
    return cachedJson(
      request,
      reply,
      async () => {
        const { results, headline } = await service.getResultsOfAnalyte(serviceDeps(app), params.id);
        return {
          analyte: { id: analyte.id, display_name: analyte.displayName },
          headline: presentV1Headline(headline),
          metas: results.map((r) => presentMeta(r.row, r.links)),
        };
      },
      { varyByUser: false },
    );
  });

  route(app, v1ListMetas, async ({ query, request, reply }) =>
    cachedJson(
      request,
      reply,
      async () => {
        const { rows, total } = await service.listMetaPage(serviceDeps(app), {
          limit: query.limit,
          offset: query.offset,
          ...since(query.updated_since),
        });
        return { meta: pageMeta(query, total), data: rows.map(presentMetaListItem) };
      },
      { varyByUser: false },
    ),
  );
}
