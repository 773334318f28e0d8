import type { Reference } from '@bvdb/contract';
import type { references } from '../../db/schema.js';

type Row = typeof references.$inferSelect;

/** "First author (year) Title", the text of the reference dropdown. */
export function referenceLabel(r: Pick<Row, 'author' | 'yearOfPublication' | 'title'>): string {
  const firstAuthor = r.author?.split(',')[0]?.trim();
  const who = firstAuthor ? `${firstAuthor}${r.author?.includes(',') ? ' et al.' : ''}` : 'Unknown Author';
  return `${who} (${r.yearOfPublication ?? 'n.d.'}) ${r.title}`;
}

export function presentReference(r: Row, usedIn: number): Reference {
  return {
    id: r.id,
    title: r.title,
    author: r.author,
    journal: r.journal,
    volume: r.volume,
    pages: r.pages,
    year_of_publication: r.yearOfPublication,
    pubmed_link: r.pubmedLink,
    doi: r.doi,
    link: r.link,
    link_to_spanish_database: r.linkToSpanishDatabase,
    article_url: r.articleUrl,
    article_file_name: r.articleFileName,
    article_file_url: r.articleFileKey ? `/api/references/${r.id}/file` : null,
    label: referenceLabel(r),
    bv_specifications_count: usedIn,
    is_demo: r.isDemo,
    version: r.version,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}
