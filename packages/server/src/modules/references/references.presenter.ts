import type { Reference } from '@bvdb/contract';
import { formatShortCitation } from '@bvdb/domain';
import contentDisposition from 'content-disposition';
import type { references } from '../../db/schema.js';

type Row = typeof references.$inferSelect;

/** "First author et al. (Year) Title", the text of the reference dropdown; what is missing is left out. */
function referenceLabel(r: Pick<Row, 'author' | 'yearOfPublication' | 'title'>): string {
  return formatShortCitation({ author: r.author, year: r.yearOfPublication, title: r.title });
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

/** What the audit trail keeps of a reference: its public fields, without derived ones. */
export function auditSnapshot(r: Row): Record<string, unknown> {
  const { label: _label, bv_specifications_count: _count, ...rest } = presentReference(r, 0);
  return rest;
}

/** One page of references, with the pagination block the public API has always sent. */
export function presentReferencePage(
  rows: { reference: Row; usedIn: number }[],
  at: { total: number; page: number; perPage: number },
) {
  const { total, page, perPage } = at;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const from = total === 0 || page > pages ? 0 : (page - 1) * perPage + 1;
  return {
    data: rows.map((r) => presentReference(r.reference, r.usedIn)),
    meta: {
      pagination: {
        count: total,
        page,
        pages,
        next: page < pages ? page + 1 : null,
        prev: page > 1 ? Math.min(page - 1, pages) : null,
        from,
        to: from === 0 ? 0 : from + rows.length - 1,
      },
    },
  };
}

/**
 * `attachment` with an ASCII fallback name (accents dropped, anything else unsafe replaced) and the
 * exact name in RFC 5987 form, so no name can break out of the header or smuggle a path.
 */
export function articleFileDisposition(name: string): string {
  const ascii =
    name
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .replace(/[^A-Za-z0-9._ -]+/g, '_')
      .trim() || 'article.pdf';
  return contentDisposition(name, { fallback: ascii });
}
