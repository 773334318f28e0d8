import { getReference, listReferences, REFERENCES_PAGE_SIZE } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { cachedJson } from '../../lib/cached-json.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, seesUnpublished } from '../../plugins/contract-routes.js';
import * as references from './references.service.js';

export function registerReferenceRoutes(app: FastifyInstance): void {
  const { db } = serviceDeps(app);

  route(app, listReferences, async ({ query, request, reply }) =>
    cachedJson(request, reply, async () => {
      const signedIn = seesUnpublished(request);
      // Without `page` the whole list, as the public API has always answered.
      if (query.page === undefined) {
        return { references: await references.listReferences(db, { signedIn, search: query.search }) };
      }
      return references.listReferencesPage(db, {
        signedIn,
        search: query.search,
        page: query.page,
        perPage: query.per_page ?? REFERENCES_PAGE_SIZE,
      });
    }),
  );

  route(app, getReference, async ({ params, request }) => {
    const reference = await references.getReference(db, params.id, seesUnpublished(request));
    if (!reference) throw notFound(`Reference ${params.id}`);
    return { reference };
  });
}
