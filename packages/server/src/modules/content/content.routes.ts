import { getContentPage, updateContentPage } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../plugins/contract-routes.js';
import { ContentService } from './content.service.js';

export function registerContentRoutes(app: FastifyInstance): void {
  const service = new ContentService(
    app.deps.database.db,
    app.deps.config.CONTENT_URL,
    app.deps.config.CONTENT_TIMEOUT_MS,
    app.deps.config.CONTENT_CACHE_SECONDS * 1000,
  );
  route(app, getContentPage, async ({ params, reply }) => {
    void reply.header('Cache-Control', 'no-cache');
    return service.getPage(params.slug);
  });
  route(app, updateContentPage, async ({ params, body }) => service.updatePage(params.slug, body));
}
