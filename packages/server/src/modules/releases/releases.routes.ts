import { v1PublishRelease, v1Release, v1ReleaseBuilds, v1ReleaseFile, v1Releases } from '@bvdb/contract';
import contentDisposition from 'content-disposition';
import type { FastifyInstance } from 'fastify';
import { FileCache } from '../../lib/file-cache.js';
import { acceptedEncodings } from '../../lib/response-cache.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { varyOn } from '../../lib/vary.js';
import { route } from '../../plugins/contract-routes.js';
import { ReleaseService, type ReleaseCause } from './releases.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Releases of the published database (tests await `releases.idle()` after a publish). */
    releases: ReleaseService;
  }
}

/** Releases (issue 30.2, decision 058): the public list and files, and the curators' "publish". */
export function registerReleaseRoutes(app: FastifyInstance): void {
  const deps = serviceDeps(app);
  const copies = FileCache.forConfig(deps.config);
  const releases = new ReleaseService(deps, copies);
  app.decorate('releases', releases);
  app.addHook('onClose', async () => {
    await releases.idle();
    await copies.close();
  });

  route(app, v1Releases, async () => ({ data: await releases.list() }));

  route(app, v1Release, async ({ params }) => ({ data: (await releases.list(params.version))[0]! }));

  route(app, v1ReleaseFile, async ({ params, request, reply }) => {
    const file = await releases.describeFile(params.version, params.name);
    const etag = `"${file.sha256}"`;
    // A release's files never change: cached for good, by anyone.
    void reply
      .header('ETag', etag)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', contentDisposition(file.name));
    // The body depends on Accept-Encoding: a file stored compressed is sent as stored to a client
    // taking gzip (the ETag is the file's own SHA-256 either way).
    void varyOn(reply, 'Accept-Encoding');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    const sent = await releases.read(file, acceptedEncodings(request.headers['accept-encoding']).has('gzip'));
    if (sent.encoding) void reply.header('Content-Encoding', sent.encoding);
    return reply
      .type(file.contentType)
      .header('Content-Length', String(sent.length))
      .send(app.deps.downloads.pace(sent.body));
  });

  route(app, v1PublishRelease, async ({ request, reply }) => {
    const cause: ReleaseCause = request.user?.role === 'admin' ? 'admin' : 'curator';
    const build = await releases.request(cause);
    return reply.status(202).send({ data: build! });
  });

  route(app, v1ReleaseBuilds, async () => ({ data: await releases.listBuilds() }));
}
