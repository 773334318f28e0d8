import { getContentPage, getSiteInfo, updateContentPage } from '@bvdb/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { analytes } from '../../db/schema.js';
import { route } from '../../plugins/contract-routes.js';
import { CITATION, DATA_USE_NOTICE } from '../exports/export-columns.js';
import { ContentService } from './content.service.js';

export function registerContentRoutes(app: FastifyInstance): void {
  const service = new ContentService(
    app.deps.database.db,
    app.deps.config.CONTENT_URL,
    app.deps.config.CONTENT_TIMEOUT_MS,
    app.deps.config.CONTENT_CACHE_SECONDS * 1000,
    { pageIds: app.deps.config.CONTENT_PAGE_IDS, disclaimerUrl: app.deps.config.CONTENT_DISCLAIMER_URL },
  );
  route(app, getContentPage, async ({ params, reply }) => {
    void reply.header('Cache-Control', 'no-cache');
    return service.getPage(params.slug);
  });
  route(app, updateContentPage, async ({ params, body }) => service.updatePage(params.slug, body));
  route(app, getSiteInfo, async () => {
    const [demo] = await app.deps.database.db
      .select({ id: analytes.id })
      .from(analytes)
      .where(eq(analytes.isDemo, true))
      .limit(1);
    return {
      data_use_notice: app.deps.config.DATA_USE_NOTICE ?? DATA_USE_NOTICE,
      citation: app.deps.config.CITATION ?? CITATION,
      content_source: app.deps.config.CONTENT_URL ? ('remote' as const) : ('builtin' as const),
      demo_data: demo !== undefined,
    };
  });
}
