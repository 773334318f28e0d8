import { Cite, type CslItem, type CslName } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import type { CitationFormat } from '@bvdb/contract';
import { describeBibtexError } from './citation-errors.js';
import { CitationFileError, detectFormat, NOT_A_CITATION_FILE } from './citation-format.js';

export { CitationFileError, detectFormat, NOT_A_CITATION_FILE };

/** A reference as read from a citation file, in the fields of the reference form. */
export interface ParsedCitation {
  title: string;
  author: string | null;
  journal: string | null;
  volume: number | null;
  pages: string | null;
  year_of_publication: number | null;
  doi: string | null;
  pmid: string | null;
}

/** "Aasne K." → "AK": names as the database writes them (Vancouver style). */
function vancouver(name: CslName): string {
  if (name.literal) return name.literal;
  const initials = (name.given ?? '')
    .split(/[\s.-]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase())
    .join('');
  return [name.family, initials].filter(Boolean).join(' ');
}

type Scalar = string | number | null | undefined;
const blank = (v: Scalar) =>
  v === undefined || v === null || String(v).trim() === '' ? null : String(v).trim();
const wholeNumber = (v: Scalar) =>
  /^\d{1,6}$/.test(String(v ?? '').trim()) ? Number(String(v).trim()) : null;

function fromCsl(item: CslItem, pmid: string | null): ParsedCitation {
  const year =
    item.issued?.['date-parts']?.[0]?.[0] ?? /\b(1[89]\d\d|2[01]\d\d)\b/.exec(item.issued?.raw ?? '')?.[1];
  return {
    title: (item.title ?? '').replace(/\s+/g, ' ').trim(),
    author: item.author && item.author.length > 0 ? item.author.map(vancouver).join(', ') : null,
    journal: blank(item.journalAbbreviation ?? item['container-title-short'] ?? item['container-title']),
    volume: wholeNumber(item.volume),
    pages: blank(item.page),
    year_of_publication: wholeNumber(year),
    doi: blank(item.DOI),
    pmid: blank(item.PMID) ?? pmid,
  };
}

/** BibTeX has no standard PubMed id field; `pmid = {…}` is the one PubMed and Zotero write. */
function bibtexPmids(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of text.split(/\n(?=\s*@)/)) {
    const key = /@\w+\s*[{(]\s*([^,\s]+)\s*,/.exec(entry)?.[1];
    const pmid = /\bpmid\s*=\s*[{"]?\s*(\d+)/i.exec(entry)?.[1];
    if (key && pmid) out.set(key, pmid);
  }
  return out;
}

/**
 * PubMed's MEDLINE format (`.nbib`): `TAG - value` lines, values continued on lines indented by
 * six spaces, records separated by blank lines. No npm parser for it is kept up, and the format is
 * this small (docs/decisions/024-citation-files.md).
 */
export function parseMedline(text: string): ParsedCitation[] {
  const records: Map<string, string[]>[] = [];
  let record: Map<string, string[]> | undefined;
  let last: { tag: string; index: number } | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const tagged = /^([A-Z]{2,4})\s*- (.*)$/.exec(line);
    if (tagged) {
      const [, tag, value] = tagged as unknown as [string, string, string];
      if (tag === 'PMID' || !record) {
        record = new Map();
        records.push(record);
      }
      const values = record.get(tag) ?? [];
      values.push(value.trim());
      record.set(tag, values);
      last = { tag, index: values.length - 1 };
    } else if (/^\s{2,}\S/.test(line) && record && last) {
      const values = record.get(last.tag)!;
      values[last.index] = `${values[last.index]} ${line.trim()}`;
    } else if (line.trim() === '') {
      last = undefined;
    }
  }
  return records.map((r) => {
    const first = (tag: string) => r.get(tag)?.[0] ?? null;
    const doi =
      [...(r.get('LID') ?? []), ...(r.get('AID') ?? [])]
        .find((v) => v.endsWith('[doi]'))
        ?.replace(/\s*\[doi\]$/, '') ?? null;
    return {
      title: (first('TI') ?? '').replace(/\s+/g, ' ').trim(),
      author: r.get('AU')?.join(', ') ?? null,
      journal: first('TA') ?? first('JT'),
      volume: wholeNumber(first('VI')),
      pages: first('PG'),
      year_of_publication: wholeNumber(/\d{4}/.exec(first('DP') ?? '')?.[0]),
      doi,
      pmid: first('PMID'),
    };
  });
}

/** Every reference of a RIS, BibTeX or MEDLINE file; no network is used. */
export async function parseCitationFile(
  text: string,
  format?: CitationFormat,
): Promise<{ format: CitationFormat; citations: ParsedCitation[] }> {
  const detected = format ?? detectFormat(text);
  if (!detected) {
    throw new CitationFileError(NOT_A_CITATION_FILE);
  }
  if (detected === 'nbib') return { format: detected, citations: parseMedline(text) };
  let cite: Cite;
  try {
    cite = await Cite.async(text, { forceType: detected === 'ris' ? '@ris/file' : '@bibtex/text' });
  } catch (err) {
    // The parser's own text names its grammar and tokens: only the position is passed on.
    throw new CitationFileError(
      detected === 'bibtex'
        ? describeBibtexError((err as Error).message, text)
        : 'The RIS file could not be read: each entry starts with a "TY  - " line and ends with "ER  - ".',
    );
  }
  const pmids = detected === 'bibtex' ? bibtexPmids(text) : new Map<string, string>();
  return {
    format: detected,
    citations: cite.data.map((item) => fromCsl(item, pmids.get(item['citation-key'] ?? '') ?? null)),
  };
}
