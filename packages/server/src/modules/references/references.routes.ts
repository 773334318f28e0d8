import { getReference, listReferences, REFERENCES_PAGE_SIZE } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedJson } from '../../lib/cached-json.js';
import { route } from '../../plugins/contract-routes.js';
import * as repo from './references.repository.js';
import { presentReference } from './references.presenter.js';

export function registerReferenceRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;

  route(app, listReferences, async ({ query, request, reply }) =>
    cachedJson(request, reply, async () => {
      const signedIn = request.user != null;
      if (query.page === undefined) {
        const rows = await repo.listReferences(db(), {
          signedIn,
          ...(query.search ? { search: query.search } : {}),
        });
        return { references: rows.map((r) => presentReference(r.reference, r.usedIn)) };
      }
      const perPage = query.per_page ?? REFERENCES_PAGE_SIZE;
      const total = await repo.countReferences(db(), query.search);
      const pages = Math.max(1, Math.ceil(total / perPage));
      const page = query.page;
      const rows = await repo.listReferences(db(), {
        signedIn,
        ...(query.search ? { search: query.search } : {}),
        limit: perPage,
        offset: (page - 1) * perPage,
      });
      const from = total === 0 || page > pages ? 0 : (page - 1) * perPage + 1;
      return {
        data: rows.map((r) => presentReference(r.reference, r.usedIn)),
        meta: {
          pagination: {
            count: total,
            page,
            pages,
            next: page < pages ? page + 1 : null,
            prev: page > 1 ? Math.min(page - 1, pages) : null,
            from,
            to: from === 0 ? 0 : from + rows.length - 1,
          },
        },
      };
    }),
  );

  route(app, getReference, async ({ params, request }) => {
    const r = await repo.findReference(db(), params.id);
    if (!r) throw notFound(`Reference ${params.id}`);
    const usedIn = await repo.countDatasetsOfReference(db(), params.id, request.user != null);
    return { reference: presentReference(r, usedIn) };
  });
}
