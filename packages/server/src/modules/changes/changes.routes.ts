import { analyteChangesAtom, changesAtom, v1Changes } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
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

  const atom = (analyteId?: number) => async () => {
    const { db, config } = serviceDeps(app);
    return { bytes: Buffer.from(await buildChangesAtom(db, config, analyteId)), headers: {} };
  };
  route(app, changesAtom, async ({ request, reply }) =>
    cachedFile(request, reply, { type: ATOM, compress: true, sameForEveryone: true }, atom()),
  );
  route(app, analyteChangesAtom, async ({ params, request, reply }) =>
    cachedFile(request, reply, { type: ATOM, compress: true, sameForEveryone: true }, atom(params.id)),
  );
}
