import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));

const SERVER_PREFIXES = ['/api', '/autocomplete', '/export_by_', '/healthz', '/readyz'];

/**
 * Serves the built React app: hashed assets cached for a year, every other GET that is not an API
 * path answered with index.html so deep links such as /references/12 load the app.
 */
export async function registerWebApp(app: FastifyInstance): Promise<void> {
  const dist = path.resolve(app.deps.config.WEB_DIST ?? DEFAULT_WEB_DIST);
  const indexFile = path.join(dist, 'index.html');
  const hasApp = fs.existsSync(indexFile);
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // Our own Cache-Control below; the plugin's default (max-age=0) would otherwise win.
      cacheControl: false,
      // `npm run build` writes .br and .gz beside every text asset (packages/web/scripts/precompress.mjs).
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'Cache-Control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
        );
      },
    });
  }
  // Read once: the shell changes only with a new build, which means a new process.
  const shell = hasApp ? fs.readFileSync(indexFile, 'utf8') : '';

  app.setNotFoundHandler((request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    const isServerPath = SERVER_PREFIXES.some((p) => urlPath.startsWith(p));
    const accepts = request.headers.accept ?? '';
    if (
      request.method === 'GET' &&
      !isServerPath &&
      hasApp &&
      (accepts.includes('text/html') || accepts === '' || accepts.includes('*/*'))
    ) {
      return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(shell);
    }
    return reply.status(404).send({
      error: 'Not Found',
      message: `Route ${request.method} ${urlPath} not found`,
      statusCode: 404,
    });
  });
}
