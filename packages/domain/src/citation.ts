/** The parts of a literature reference a citation is made of; any may be missing. */
export interface CitationParts {
  author?: string | null;
  title?: string | null;
  journal?: string | null;
  year?: number | null;
  volume?: number | null;
  pages?: string | null;
}

/** Placeholders the live data and the read API use for "not known": never part of a citation. */
const PLACEHOLDERS = new Set([
  '',
  'n/a',
  'na',
  'unknown',
  'unknown author',
  'unknown title',
  'unknown journal',
]);

function clean(text: string | null | undefined): string {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  return PLACEHOLDERS.has(t.toLowerCase()) ? '' : t;
}

/** Vancouver lists up to six authors; with more, the first six and "et al" (ICMJE, Citing Medicine ch. 1). */
export const MAX_CITED_AUTHORS = 6;

/**
 * The authors of a citation: "Surname Initials" names separated by commas (or semicolons). More than
 * six become the first six and "et al". A list that does not read as such names (e.g. "Smith, J.")
 * is kept as written.
 */
export function vancouverAuthors(author: string): string {
  const names = splitAuthors(author);
  if (names.length <= MAX_CITED_AUTHORS) return author;
  return `${names.slice(0, MAX_CITED_AUTHORS).join(', ')}, et al`;
}

/** The separate names of an author list, or [] when it does not read as "Surname Initials" names. */
export function splitAuthors(author: string): string[] {
  const t = clean(author);
  if (!t) return [];
  const names = t
    .split(t.includes(';') ? ';' : ',')
    .map((n) => n.trim())
    .filter(Boolean);
  // "Smith, J." splits into a surname and initials: not a list of names.
  const looksLikeNames = names.every((n) => /\s/.test(n) || /^et al\.?$/i.test(n));
  return looksLikeNames ? names : [t];
}

/**
 * The short form of a reference in a picker or a table cell: "First author et al. (Year) Title",
 * each part left out when missing (never "Unknown Author" or "(n.d.)").
 */
export function formatShortCitation(ref: Pick<CitationParts, 'author' | 'title' | 'year'>): string {
  const all = splitAuthors(clean(ref.author));
  const first = all[0] && !/^et al\.?$/i.test(all[0]) ? bare(all[0]) : '';
  const who = first && all.length > 1 ? `${first} et al.` : first;
  const year = ref.year != null && Number.isFinite(ref.year) ? `(${ref.year})` : '';
  const title = clean(ref.title);
  return who ? [who, year, title].filter(Boolean).join(' ') : [title, year].filter(Boolean).join(' ');
}

/** Drops the trailing punctuation a part may carry, so joining never doubles a full stop. */
const bare = (t: string) => t.replace(/[.\s]+$/, '');

/**
 * A one-line citation in the Vancouver order (ICMJE "Citing Medicine"): authors. Title. Journal
 * Year;Volume:Pages. Missing parts are left out with their punctuation — no "et al..", no ";0:N/A",
 * no "(n.d.)". A volume of 0 is the live data's "unknown" and is left out too.
 */
export function formatCitation(ref: CitationParts): string {
  const author = bare(vancouverAuthors(clean(ref.author)));
  const title = bare(clean(ref.title));
  const journal = bare(clean(ref.journal));
  const year = ref.year != null && Number.isFinite(ref.year) ? String(ref.year) : '';
  const volume = ref.volume != null && ref.volume > 0 ? String(ref.volume) : '';
  const pages = clean(ref.pages);

  let issue = year;
  if (volume) issue += `${issue ? ';' : ''}${volume}`;
  if (pages) issue += `${issue ? ':' : ''}${pages}`;
  const source = [journal, issue].filter(Boolean).join(' ');

  return [author, title, source]
    .filter(Boolean)
    .map((part) => (/[?!]$/.test(part) ? part : `${bare(part)}.`))
    .join(' ');
}
