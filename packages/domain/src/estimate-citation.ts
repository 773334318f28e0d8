import { formatCitation, splitAuthors, type CitationParts } from './citation.js';
import { formatFixed } from './rounding.js';

/**
 * "Cite this estimate" (issue 18.3): the database's own citation (the home page's, as configured)
 * with the estimate a reader used, its matrix, N, date and a permalink, as text, RIS and BibTeX.
 * Vancouver for a part of a database (ICMJE, Citing Medicine ch. 24 "Databases/Retrieval Systems on
 * the Internet"): authors. Title [Internet]. [cited date]. Part. Available from: URL.
 */

export type EstimateType = 'CVI' | 'CVG';

export interface CitedValue {
  type: EstimateType;
  value: number | null;
  lower?: number | null;
  upper?: number | null;
}

export interface EstimateCitation {
  /** The database citation of the home page (configured; "[time of access]" becomes the access date). */
  databaseCitation: string;
  measurand: string;
  matrix: string;
  /** What is cited: a meta-analysis result ("weighted median of N studies") or one study's dataset. */
  kind: 'meta-analysis' | 'dataset';
  /** The dataset's unique identifier, for a dataset. */
  datasetLabel?: string | null;
  values: CitedValue[];
  /** Studies used (meta-analysis) or subjects (dataset); left out when unknown. */
  n: number | null;
  /** When the estimate last changed (ISO 8601). */
  updated: string;
  /** The estimate's version (its history, issue 29.5); left out when unknown. */
  version?: number | null;
  /**
   * The dated release the value is in (issue 30.3): the release a pinned page shows, else the latest
   * published one; left out when the site has none.
   */
  release?: string | null;
  /** The permalink: measurand, matrix and type, never a result's id. */
  url: string;
  accessed: Date;
  /** The study a dataset comes from. */
  source?: CitationParts | null;
  /**
   * A population's estimate (issue 47, decision 097): the chosen facets in words ("Sex: Males;
   * Sampling interval: Weeks"), recomputed from the matching studies; left out for the global one.
   */
  population?: string | null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Vancouver's date: "2026 Nov 23". */
export function vancouverDate(d: Date): string {
  return `${d.getUTCFullYear()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const dateOf = (iso: string): Date | null => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
};

const TYPE_NAMES: Record<EstimateType, string> = {
  CVI: 'within-subject biological variation (CVI)',
  CVG: 'between-subject biological variation (CVG)',
};

/**
 * "CVI 4.5% (4.1–5.0)", the limits left out when missing or empty (a stored 0–0 is "not given", and
 * an interval that is a point says nothing).
 */
export function formatCitedValue(v: CitedValue): string {
  if (v.value == null) return `${v.type} not available`;
  const limits =
    v.lower != null && v.upper != null && v.lower < v.upper
      ? ` (${formatFixed(v.lower, 1)}–${formatFixed(v.upper, 1)})`
      : '';
  return `${v.type} ${formatFixed(v.value, 1)}%${limits}`;
}

/** The database citation with the access date where it says "[time of access]" (or no date at all). */
export function databaseCitationOn(text: string, accessed: Date): string {
  const t = text.replace(/\s+/g, ' ').trim();
  const cited = `[cited ${vancouverDate(accessed)}]`;
  return /\[time of access\]/i.test(t) ? t.replace(/\[time of access\]/i, cited) : t;
}

/** The parts of the database citation ("Authors. Title. URL …"), for RIS and BibTeX. */
export function parseDatabaseCitation(text: string): {
  authors: string[];
  title: string;
  url: string | null;
} {
  const t = text.replace(/\s+/g, ' ').trim();
  const url = /https?:\/\/[^\s\]]+/.exec(t)?.[0]?.replace(/[.,;]$/, '') ?? null;
  const beforeUrl = (url ? t.slice(0, t.indexOf(url)) : t).trim();
  // "Aarsand AK, …, Sandberg S. The EFLM Biological Variation Database." — the first ". " after a
  // run of initials ends the authors.
  const sentences = beforeUrl.split(/(?<=[A-Za-z])\.\s+/);
  if (sentences.length >= 2) {
    const authors = splitAuthors(sentences[0] ?? '');
    const title = sentences.slice(1).join('. ').replace(/\.$/, '').trim();
    if (authors.length > 0 && title) return { authors, title, url };
  }
  return { authors: [], title: beforeUrl.replace(/\.$/, ''), url };
}

/** "Creatinine (Serum): within-subject biological variation (CVI)", or the dataset's name. */
function partTitle(e: EstimateCitation): string {
  const what =
    e.kind === 'dataset'
      ? `biological variation dataset${e.datasetLabel ? ` ${e.datasetLabel}` : ''}`
      : e.values.length === 1 && e.values[0]
        ? TYPE_NAMES[e.values[0].type]
        : 'biological variation';
  const population = e.population ? `, population ${e.population}` : '';
  return `${e.measurand} (${e.matrix}${population}): ${what}`;
}

/** The estimate's own sentence: values, N and date, without the database part. */
export function describeCitedEstimate(e: EstimateCitation): string {
  const values = e.values.map(formatCitedValue).join(', ');
  const lead = e.kind === 'meta-analysis' ? `weighted median ${values}` : values;
  const n =
    e.n != null
      ? `N = ${e.n} ${e.kind === 'meta-analysis' ? (e.n === 1 ? 'study' : 'studies') : 'subjects'}`
      : '';
  const when = dateOf(e.updated);
  const updated = when ? `updated ${vancouverDate(when)}` : '';
  const version = e.version != null ? `version ${e.version}` : '';
  const release = e.release ? `release ${e.release}` : '';
  return [lead, n, version, release, updated].filter(Boolean).join('; ');
}

/**
 * The citation as text: the database citation (dated), the part cited with its estimate, N and
 * date, the study for a dataset, and the permalink. Nothing missing is printed.
 */
export function formatEstimateCitation(e: EstimateCitation): string {
  const database = databaseCitationOn(e.databaseCitation, e.accessed);
  const part = `${partTitle(e)}: ${describeCitedEstimate(e)}.`;
  const source = e.source ? formatCitation(e.source) : '';
  return [database, part, source ? `Study: ${source}` : '', `Available from: ${e.url}`]
    .filter(Boolean)
    .join(' ');
}

/** "Aarsand AK" → "Aarsand, AK" (RIS and BibTeX put the surname first, then a comma). */
function surnameFirst(name: string): string {
  const m = /^(.*\S)\s+([A-Z\u00C0-\u024F-]{1,4})\.?$/u.exec(name.trim());
  return m ? `${m[1]}, ${m[2]}` : name.trim();
}

const authorsOf = (e: EstimateCitation) =>
  parseDatabaseCitation(e.databaseCitation).authors.filter((a) => !/^et al\.?$/i.test(a));

/** RIS (the tagged format of reference managers): a DATA record of the database part. */
export function estimateRis(e: EstimateCitation): string {
  const db = parseDatabaseCitation(e.databaseCitation);
  const updated = dateOf(e.updated);
  const lines: [string, string][] = [['TY', 'DATA']];
  for (const a of authorsOf(e)) lines.push(['AU', surnameFirst(a)]);
  lines.push(['TI', partTitle(e)]);
  if (db.title) lines.push(['T2', db.title], ['DB', db.title]);
  if (updated) {
    lines.push(['PY', String(updated.getUTCFullYear())]);
    lines.push(['DA', isoDay(updated).replaceAll('-', '/')]);
  }
  lines.push(['Y2', isoDay(e.accessed).replaceAll('-', '/')]);
  lines.push(['UR', e.url]);
  if (e.release) lines.push(['ET', `Release ${e.release}`]);
  lines.push(['N1', describeCitedEstimate(e)]);
  if (e.source) {
    const source = formatCitation(e.source);
    if (source) lines.push(['N1', `Study: ${source}`]);
  }
  lines.push(['ER', '']);
  return lines.map(([tag, value]) => `${tag}  - ${oneLine(value)}`.trimEnd()).join('\r\n') + '\r\n';
}

const oneLine = (t: string) => t.replace(/\s+/g, ' ').trim();

/** Text made safe inside a BibTeX field: LaTeX's special characters escaped, dashes as LaTeX writes them. */
export function bibtexEscape(t: string): string {
  const special: Record<string, string> = {
    '\\': '\\textbackslash{}',
    '~': '\\textasciitilde{}',
    '^': '\\textasciicircum{}',
    '–': '--',
  };
  return oneLine(t).replace(/[\\~^–{}%&#_$]/g, (c) => special[c] ?? `\\${c}`);
}

const slug = (t: string) =>
  t
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The BibTeX key: bvdb-measurand-matrix-type, plain ASCII. */
export function estimateCitationKey(e: EstimateCitation): string {
  const type =
    e.kind === 'dataset'
      ? `dataset-${slug(e.datasetLabel ?? '')}`
      : e.values.map((v) => v.type.toLowerCase()).join('-');
  return ['bvdb', slug(e.measurand), slug(e.matrix), type].filter(Boolean).join('-').replace(/-+$/, '');
}

/** BibTeX: a `@misc` entry (every style reads it; biblatex also takes `url`, `urldate` and `date`). */
export function estimateBibtex(e: EstimateCitation): string {
  const db = parseDatabaseCitation(e.databaseCitation);
  const updated = dateOf(e.updated);
  const fields: [string, string][] = [];
  const authors = authorsOf(e).map(surnameFirst);
  if (authors.length > 0) fields.push(['author', authors.map(bibtexEscape).join(' and ')]);
  fields.push(['title', `{${bibtexEscape(partTitle(e))}}`]);
  if (db.title)
    fields.push(['organization', bibtexEscape(db.title)], ['howpublished', bibtexEscape(db.title)]);
  if (updated) fields.push(['year', String(updated.getUTCFullYear())], ['date', isoDay(updated)]);
  fields.push(['url', e.url], ['urldate', isoDay(e.accessed)]);
  if (e.release) fields.push(['version', bibtexEscape(`release ${e.release}`)]);
  const source = e.source ? formatCitation(e.source) : '';
  const note = [describeCitedEstimate(e), source ? `Study: ${source}` : ''].filter(Boolean).join('. ');
  fields.push(['note', bibtexEscape(note)]);
  const body = fields.map(([k, v]) => `  ${k} = {${v}}`).join(',\n');
  return `@misc{${estimateCitationKey(e)},\n${body}\n}\n`;
}
