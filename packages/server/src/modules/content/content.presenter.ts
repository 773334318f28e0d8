import type { ContentPage, ContentSlug } from '@bvdb/contract';
import { marked } from 'marked';
import type { contentPages } from '../../db/schema.js';
import { sanitiseHtml } from './sanitise-html.js';
import type { WordPressPage } from './wordpress-client.js';

function renderMarkdown(markdown: string): string {
  return sanitiseHtml(marked.parse(markdown, { async: false }));
}

/** A page of the built-in store: its markdown rendered and sanitised, with what editing it needs. */
export function presentBuiltinPage(row: typeof contentPages.$inferSelect): ContentPage {
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

/** A WordPress page, sanitised: the site is outside our control. */
export function presentRemotePage(slug: ContentSlug, wp: WordPressPage): ContentPage {
  return {
    id: wp.id,
    slug,
    title: { rendered: sanitiseHtml(wp.title.rendered) },
    content: { rendered: sanitiseHtml(wp.content.rendered) },
    source: 'remote',
    markdown: null,
    version: null,
    updated_at: null,
  };
}
