import { getContentPage, getSiteInfo, updateContentPage } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { ContentService } from './content.service.js';

export function registerContentRoutes(app: FastifyInstance): void {
  const service = new ContentService(serviceDeps(app));
  route(app, getContentPage, async ({ params, reply }) => {
    void reply.header('Cache-Control', 'no-cache');
    return service.getPage(params.slug);
  });
  route(app, updateContentPage, async ({ params, body }) => service.updatePage(params.slug, body));
  route(app, getSiteInfo, async () => service.siteInfo());
}
