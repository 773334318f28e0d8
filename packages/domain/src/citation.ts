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

/** Drops the trailing punctuation a part may carry, so joining never doubles a full stop. */
const bare = (t: string) => t.replace(/[.\s]+$/, '');

/**
 * A one-line citation in the Vancouver order (ICMJE "Citing Medicine"): authors. Title. Journal
 * Year;Volume:Pages. Missing parts are left out with their punctuation — no "et al..", no ";0:N/A",
 * no "(n.d.)". A volume of 0 is the live data's "unknown" and is left out too.
 */
export function formatCitation(ref: CitationParts): string {
  const author = bare(clean(ref.author));
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
