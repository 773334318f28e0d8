import { CITATION_FILE_MAX_ENTRIES, type CitationFormat } from '@bvdb/contract';
import { AppError } from '../../lib/app-error.js';

/** Where each format starts an entry; @comment, @string and @preamble are not references. */
const ENTRY_START: Record<CitationFormat, RegExp> = {
  ris: /^TY {2}-/gm,
  bibtex: /@[ \t]*(?!(?:comment|string|preamble)\b)[A-Za-z]+[ \t]*[{(]/gi,
  nbib: /^PMID- ?\d/gm,
};

/** How many entries a citation file holds, by one pass of a regular expression (no parsing). */
export function countCitationEntries(text: string, format: CitationFormat): number {
  return text.match(ENTRY_START[format])?.length ?? 0;
}

/**
 * A file with more entries than one import creates is refused before it is parsed: parsing costs
 * about a millisecond an entry (20,000 RIS entries took 22 s), and no preview past the cap could be
 * imported anyway.
 */
export function refuseTooManyEntries(text: string, format: CitationFormat): void {
  const count = countCitationEntries(text, format);
  if (count <= CITATION_FILE_MAX_ENTRIES) return;
  const n = (v: number) => v.toLocaleString('en-GB');
  const message = `The file holds ${n(count)} references: at most ${n(CITATION_FILE_MAX_ENTRIES)} are read at once (as many as one import creates). Split it into smaller files.`;
  throw new AppError('bad_request', message, { fields: [{ path: 'text', message }] });
}
