import { requestOrigin } from '../../lib/site-origin.js';
import { analyteChangesAtom, changesAtom, v1Changes } from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cachedFile, cachedJson } from '../../lib/cached-json.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { buildChangesAtom, readChanges } from './changes.service.js';

const ATOM = 'application/atom+xml; charset=utf-8';

/**
 * The change feed (issue 30.1, decision 056): JSON after a cursor and two Atom feeds, all cached
 * public reads (ETag, 304) rebuilt after any data change. Every caller sees the same published
 * changes, so signed-in callers share the kept answers.
 */
export function registerChangeRoutes(app: FastifyInstance): void {
  route(app, v1Changes, async ({ query, request, reply }) =>
    cachedJson(request, reply, () => readChanges(serviceDeps(app).db, query.since, query.limit), {
      varyByUser: false,
    }),
  );

  // Absolute links (issue 42.9): PUBLIC_URL, else the request's origin (TRUST_PROXY decides whether
  // X-Forwarded-Proto/-Host are read). Without PUBLIC_URL the cached feed is kept per origin.
  const originOf = requestOrigin;
  const atom = (origin: string, analyteId?: number) => async () => {
    const { db, config } = serviceDeps(app);
    return { bytes: Buffer.from(await buildChangesAtom(db, config, origin, analyteId)), headers: {} };
  };
  const opts = (request: FastifyRequest) => ({
    type: ATOM,
    compress: true,
    sameForEveryone: true,
    ...(serviceDeps(app).config.PUBLIC_URL ? {} : { keyExtra: originOf(request) }),
  });
  route(app, changesAtom, async ({ request, reply }) =>
    cachedFile(request, reply, opts(request), atom(originOf(request))),
  );
  route(app, analyteChangesAtom, async ({ params, request, reply }) =>
    cachedFile(request, reply, opts(request), atom(originOf(request), params.id)),
  );
}
