import type { ContentPage, ContentSlug, SiteInfo } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { hasDemoMeasurands } from '../analytes/index.js';
import { exportNotice } from '../../lib/export-notice.js';
import { CONTENT_PAGE_IDS, DEFAULT_PAGES } from './content-defaults.js';
import { presentBuiltinPage, presentRemotePage } from './content.presenter.js';
import * as repo from './content.repository.js';
import { ContentUnavailableError, fetchWordPressPage } from './wordpress-client.js';

const CONTENT_FAILURE = 'Failed to load page data.';

/** The built-in pages on first start (CONTENT_URL unset); pages already there keep their edits. */
export async function seedContentPages(db: DbOrTx): Promise<void> {
  await repo.insertMissingPages(
    db,
    (Object.entries(DEFAULT_PAGES) as [ContentSlug, { title: string; markdown: string }][]).map(
      ([slug, page]) => ({ id: CONTENT_PAGE_IDS[slug], slug, ...page }),
    ),
  );
}

/** CONTENT_PAGE_IDS (`about=10,...`) over the live site's ids. */
function pageIdsOf(setting: string | undefined): Record<ContentSlug, number> {
  const ids = { ...CONTENT_PAGE_IDS };
  for (const pair of setting?.split(',') ?? []) {
    const [slug, id] = pair.split('=');
    if (slug && id && slug in ids) ids[slug as ContentSlug] = Number(id);
  }
  return ids;
}

/**
 * Static pages from a WordPress site when CONTENT_URL is set (sanitised, cached, and the last good
 * copy served while the site is down), otherwise from the built-in store; same shape either way.
 */
export class ContentService {
  private cache = new Map<ContentSlug, { page: ContentPage; fetchedAt: number }>();
  private readonly pageIds: Record<ContentSlug, number>;

  constructor(private readonly deps: Pick<ServiceDeps, 'db' | 'config'>) {
    this.pageIds = pageIdsOf(deps.config.CONTENT_PAGE_IDS);
  }

  async getPage(slug: ContentSlug): Promise<ContentPage> {
    const { CONTENT_URL, CONTENT_DISCLAIMER_URL, CONTENT_TIMEOUT_MS, CONTENT_CACHE_SECONDS } =
      this.deps.config;
    if (!CONTENT_URL) {
      const row = await repo.findContentPage(this.deps.db, slug);
      if (!row) throw new AppError('not_found', CONTENT_FAILURE);
      return presentBuiltinPage(row);
    }
    const cached = this.cache.get(slug);
    if (cached && Date.now() - cached.fetchedAt < CONTENT_CACHE_SECONDS * 1000) return cached.page;
    try {
      const base = slug === 'disclaimer' ? (CONTENT_DISCLAIMER_URL ?? CONTENT_URL) : CONTENT_URL;
      const page = presentRemotePage(
        slug,
        await fetchWordPressPage(base, this.pageIds[slug], CONTENT_TIMEOUT_MS),
      );
      this.cache.set(slug, { page, fetchedAt: Date.now() });
      return page;
    } catch (err) {
      if (!(err instanceof ContentUnavailableError)) throw err;
      if (cached) return { ...cached.page, source: 'remote-cache' };
      throw new AppError('bad_gateway', CONTENT_FAILURE);
    }
  }

  async updatePage(
    slug: ContentSlug,
    input: { title: string; markdown: string; version: number },
  ): Promise<ContentPage> {
    if (this.deps.config.CONTENT_URL) {
      throw new AppError('conflict', 'Pages come from the content service (CONTENT_URL); edit them there');
    }
    const row = await repo.updateContentPage(this.deps.db, slug, input);
    if (!row) {
      const current = await repo.findContentPage(this.deps.db, slug);
      throw new AppError(
        'conflict',
        'Someone else saved this page after you opened it; your changes were not saved',
        { current: current ? presentBuiltinPage(current) : null },
      );
    }
    return presentBuiltinPage(row);
  }

  /** What every page of the site shows: the notice, the citation, where pages come from, the demo banner. */
  async siteInfo(): Promise<SiteInfo> {
    const notice = exportNotice(this.deps.config);
    return {
      data_use_notice: notice.dataUse,
      citation: notice.citation,
      content_source: this.deps.config.CONTENT_URL ? 'remote' : 'builtin',
      demo_data: await hasDemoMeasurands(this.deps.db),
    };
  }
}
