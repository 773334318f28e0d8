import type { ContentPage, ContentSlug } from '@bvdb/contract';
import { and, eq, sql } from 'drizzle-orm';
import { marked } from 'marked';
import type { Db, DbOrTx } from '../../db/client.js';
import { contentPages } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { CONTENT_PAGE_IDS, DEFAULT_PAGES } from './content-defaults.js';
import { sanitiseHtml } from './sanitise-html.js';
import { ContentUnavailableError, fetchWordPressPage } from './wordpress-client.js';

export const CONTENT_FAILURE = 'Failed to load page data.';

interface Cached {
  page: ContentPage;
  fetchedAt: number;
}

export async function seedContentPages(db: DbOrTx): Promise<void> {
  for (const [slug, page] of Object.entries(DEFAULT_PAGES) as [
    ContentSlug,
    { title: string; markdown: string },
  ][]) {
    await db
      .insert(contentPages)
      .values({ id: CONTENT_PAGE_IDS[slug], slug, title: page.title, markdown: page.markdown })
      .onConflictDoNothing();
  }
}

function renderMarkdown(markdown: string): string {
  return sanitiseHtml(marked.parse(markdown, { async: false }));
}

function presentBuiltin(row: typeof contentPages.$inferSelect): ContentPage {
  return {
    id: row.id,
    slug: row.slug as ContentSlug,
    title: { rendered: sanitiseHtml(row.title) },
    content: { rendered: renderMarkdown(row.markdown) },
    source: 'builtin',
    markdown: row.markdown,
    version: row.version,
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Static pages from a WordPress site when CONTENT_URL is set (sanitised, cached, and the last good
 * copy served while the site is down), otherwise from the built-in store; same shape either way.
 */
export class ContentService {
  private cache = new Map<ContentSlug, Cached>();

  private readonly pageIds: Record<ContentSlug, number>;
  private readonly disclaimerUrl: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly contentUrl: string | undefined,
    private readonly timeoutMs = 5000,
    private readonly freshMs = 60_000,
    opts: { pageIds?: string | undefined; disclaimerUrl?: string | undefined } = {},
  ) {
    this.pageIds = { ...CONTENT_PAGE_IDS };
    for (const pair of opts.pageIds?.split(',') ?? []) {
      const [slug, id] = pair.split('=');
      if (slug && id && slug in this.pageIds) this.pageIds[slug as ContentSlug] = Number(id);
    }
    this.disclaimerUrl = opts.disclaimerUrl;
  }

  async getPage(slug: ContentSlug): Promise<ContentPage> {
    if (!this.contentUrl) {
      const [row] = await this.db.select().from(contentPages).where(eq(contentPages.slug, slug));
      if (!row) throw new AppError('not_found', CONTENT_FAILURE);
      return presentBuiltin(row);
    }
    const cached = this.cache.get(slug);
    if (cached && Date.now() - cached.fetchedAt < this.freshMs) return cached.page;
    try {
      const base = slug === 'disclaimer' ? (this.disclaimerUrl ?? this.contentUrl) : this.contentUrl;
      const wp = await fetchWordPressPage(base, this.pageIds[slug], this.timeoutMs);
      const page: ContentPage = {
        id: wp.id,
        slug,
        title: { rendered: sanitiseHtml(wp.title.rendered) },
        content: { rendered: sanitiseHtml(wp.content.rendered) },
        source: 'remote',
        markdown: null,
        version: null,
        updated_at: null,
      };
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
    if (this.contentUrl) {
      throw new AppError('conflict', 'Pages come from the content service (CONTENT_URL); edit them there');
    }
    const [row] = await this.db
      .update(contentPages)
      .set({
        title: input.title,
        markdown: input.markdown,
        version: sql`${contentPages.version} + 1`,
        updatedAt: new Date(),
      })
      .where(and(eq(contentPages.slug, slug), eq(contentPages.version, input.version)))
      .returning();
    if (!row) {
      const [current] = await this.db.select().from(contentPages).where(eq(contentPages.slug, slug));
      throw new AppError(
        'conflict',
        'Someone else saved this page after you opened it; your changes were not saved',
        {
          current: current ? presentBuiltin(current) : null,
        },
      );
    }
    return presentBuiltin(row);
  }
}
