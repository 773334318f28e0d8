import { describe, expect, it } from 'vitest';
import {
  bibtexEscape,
  databaseCitationOn,
  estimateBibtex,
  estimateCitationKey,
  estimateRis,
  formatEstimateCitation,
  parseDatabaseCitation,
  type EstimateCitation,
} from './estimate-citation.js';

// The database citation bvdb is configured with by default (server: exports/export-columns.ts).
const DB =
  'Aarsand AK, Fernandez-Calle P, Webster C, Coskun A, Gonzales-Lao E, Diaz-Garzon J, Jonker N, ' +
  'Simon M, Braga F, Perich C, Boned B, Marques-Garcia F, Carobene A, Aslan B, Sezer E, Bartlett WA, ' +
  'Sandberg S. The EFLM Biological Variation Database. https://biologicalvariation.eu/ [time of access].';
const accessed = new Date('2026-11-23T10:00:00Z');
const meta: EstimateCitation = {
  databaseCitation: DB,
  measurand: 'Creatinine',
  matrix: 'Serum',
  kind: 'meta-analysis',
  values: [{ type: 'CVI', value: 4.46, lower: 4.1, upper: 5.04 }],
  n: 12,
  updated: '2025-03-12T08:00:00.000Z',
  url: 'https://bv.example.org/analytes/7?matrix=Serum&type=CVI',
  accessed,
};
const dataset: EstimateCitation = {
  ...meta,
  kind: 'dataset',
  datasetLabel: 'BV_0042',
  values: [
    { type: 'CVI', value: 5.3, lower: 4.6, upper: 6.2 },
    { type: 'CVG', value: 14.2, lower: 0, upper: 0 },
  ],
  n: 20,
  url: 'https://bv.example.org/bv_specifications/42',
  source: {
    author: 'Doe J, Roe R',
    title: 'A study',
    journal: 'Clin Chem',
    year: 2010,
    volume: 0,
    pages: 'N/A',
  },
};

describe('the database citation', () => {
  it('takes the access date where it says [time of access]', () => {
    expect(databaseCitationOn(DB, accessed)).toMatch(
      /Database\. https:\/\/biologicalvariation\.eu\/ \[cited 2026 Nov 23\]\.$/,
    );
    expect(databaseCitationOn('Plain text.', accessed)).toBe('Plain text.');
  });
  it('is read into authors, title and address', () => {
    const p = parseDatabaseCitation(DB);
    expect(p.authors).toHaveLength(17);
    expect(p.authors[0]).toBe('Aarsand AK');
    expect(p.authors.at(-1)).toBe('Sandberg S');
    expect(p.title).toBe('The EFLM Biological Variation Database');
    expect(p.url).toBe('https://biologicalvariation.eu/');
  });
  it('keeps a text it cannot read as the title', () => {
    expect(parseDatabaseCitation('BV database')).toEqual({ authors: [], title: 'BV database', url: null });
  });
});

describe('formatEstimateCitation', () => {
  it('a meta-analysis estimate: database, estimate, matrix, N, date, permalink', () => {
    const text = formatEstimateCitation(meta);
    expect(text).toContain('[cited 2026 Nov 23].');
    expect(text).toContain(
      'Creatinine (Serum): within-subject biological variation (CVI): weighted median CVI 4.5% (4.1–5.0); N = 12 studies; updated 2025 Mar 12.',
    );
    expect(text.endsWith('Available from: https://bv.example.org/analytes/7?matrix=Serum&type=CVI')).toBe(
      true,
    );
  });
  it('a dataset: both values, subjects, and the study without its unknowns', () => {
    const text = formatEstimateCitation(dataset);
    expect(text).toContain(
      'Creatinine (Serum): biological variation dataset BV_0042: CVI 5.3% (4.6–6.2), CVG 14.2%; N = 20 subjects; updated 2025 Mar 12.',
    );
    expect(text).toContain('Study: Doe J, Roe R. A study. Clin Chem 2010.');
    expect(text).not.toMatch(/;0:|N\/A|n\.d\.|Unknown|\.\./);
  });
  it('leaves out what is missing (N, date, limits, value)', () => {
    const text = formatEstimateCitation({
      ...meta,
      values: [{ type: 'CVG', value: null }],
      n: null,
      updated: 'not a date',
    });
    expect(text).toContain(
      'Creatinine (Serum): between-subject biological variation (CVG): weighted median CVG not available.',
    );
    expect(text).not.toMatch(/N =|updated|NaN|undefined|null/);
  });
});

describe("the estimate's version (issue 29.5)", () => {
  it('is named between N and the date, in the text, RIS and BibTeX', () => {
    const cited = { ...meta, version: 3 };
    const part = 'weighted median CVI 4.5% (4.1–5.0); N = 12 studies; version 3; updated 2025 Mar 12';
    expect(formatEstimateCitation(cited)).toContain(`${part}.`);
    expect(estimateRis(cited)).toContain(`N1  - ${part}`);
    expect(estimateBibtex(cited)).toContain('version 3');
  });
});

describe('the release (issue 30.3)', () => {
  it('is named after the version, in the text, as the RIS edition and the BibTeX version', () => {
    const cited = { ...meta, version: 3, release: '2026-11-27.2' };
    const part =
      'weighted median CVI 4.5% (4.1–5.0); N = 12 studies; version 3; release 2026-11-27.2; updated 2025 Mar 12';
    expect(formatEstimateCitation(cited)).toContain(part);
    expect(estimateRis(cited)).toContain('ET  - Release 2026-11-27.2\r\n');
    expect(estimateBibtex(cited)).toContain('  version = {release 2026-11-27.2}');
    // No release, nothing said of one.
    expect(formatEstimateCitation({ ...meta, release: null })).not.toContain('release');
    expect(estimateRis(meta)).not.toContain('ET  -');
    expect(estimateBibtex(meta)).not.toContain('version =');
  });
});

describe('a population (issue 47, decision 097)', () => {
  const population: EstimateCitation = {
    ...meta,
    population: 'Sex: Males; Sampling interval: Weeks',
    url: 'https://bv.example.org/analytes/7?facet.sex=males&facet.interval=weeks',
  };
  it('is named with the matrix, in the text, the RIS title and the BibTeX title', () => {
    expect(formatEstimateCitation(population)).toContain(
      'Creatinine (Serum, population Sex: Males; Sampling interval: Weeks): within-subject biological variation',
    );
    expect(estimateRis(population)).toContain(
      'TI  - Creatinine (Serum, population Sex: Males; Sampling interval: Weeks)',
    );
    expect(estimateBibtex(population)).toContain('population Sex: Males; Sampling interval: Weeks');
    expect(formatEstimateCitation(population)).toContain(
      'Available from: https://bv.example.org/analytes/7?facet.sex=males&facet.interval=weeks',
    );
  });
  it('is left out for the global estimate', () => {
    expect(formatEstimateCitation({ ...meta, population: null })).toBe(formatEstimateCitation(meta));
  });
});

describe('RIS', () => {
  const lines = estimateRis(meta).split('\r\n');
  it('is a DATA record with the authors surname first and every part', () => {
    expect(lines[0]).toBe('TY  - DATA');
    expect(lines[1]).toBe('AU  - Aarsand, AK');
    expect(lines).toContain('AU  - Gonzales-Lao, E');
    expect(lines.filter((l) => l.startsWith('AU  - '))).toHaveLength(17);
    expect(lines).toContain('TI  - Creatinine (Serum): within-subject biological variation (CVI)');
    expect(lines).toContain('T2  - The EFLM Biological Variation Database');
    expect(lines).toContain('PY  - 2025');
    expect(lines).toContain('DA  - 2025/03/12');
    expect(lines).toContain('Y2  - 2026/11/23');
    expect(lines).toContain('UR  - https://bv.example.org/analytes/7?matrix=Serum&type=CVI');
    expect(lines).toContain('N1  - weighted median CVI 4.5% (4.1–5.0); N = 12 studies; updated 2025 Mar 12');
    expect(lines.at(-2)).toBe('ER  -');
    expect(lines.at(-1)).toBe('');
  });
  it('carries the study of a dataset', () => {
    expect(estimateRis(dataset)).toContain('N1  - Study: Doe J, Roe R. A study. Clin Chem 2010.\r\n');
  });
});

describe('BibTeX', () => {
  it('is a @misc entry with a plain key and escaped text', () => {
    const bib = estimateBibtex(meta);
    expect(bib.startsWith('@misc{bvdb-creatinine-serum-cvi,\n')).toBe(true);
    expect(bib).toContain('  author = {Aarsand, AK and Fernandez-Calle, P and ');
    expect(bib).toContain('  title = {{Creatinine (Serum): within-subject biological variation (CVI)}}');
    expect(bib).toContain('  year = {2025}');
    expect(bib).toContain('  url = {https://bv.example.org/analytes/7?matrix=Serum&type=CVI}');
    expect(bib).toContain('  urldate = {2026-11-23}');
    expect(bib).toContain(
      '  note = {weighted median CVI 4.5\\% (4.1--5.0); N = 12 studies; updated 2025 Mar 12}',
    );
    expect(bib.trimEnd().endsWith('}')).toBe(true);
    // Braces balance: the file parses.
    const open = (bib.match(/(?<!\\)\{/g) ?? []).length;
    const close = (bib.match(/(?<!\\)\}/g) ?? []).length;
    expect(open).toBe(close);
  });
  it('keys a dataset by its identifier, accents dropped', () => {
    expect(estimateCitationKey({ ...dataset, measurand: 'Glucosa é', matrix: 'Whole blood' })).toBe(
      'bvdb-glucosa-e-whole-blood-dataset-bv-0042',
    );
  });
  it('escapes what LaTeX would read as commands', () => {
    expect(bibtexEscape('50% & {x} #1 a_b $ ~ ^ \\')).toBe(
      '50\\% \\& \\{x\\} \\#1 a\\_b \\$ \\textasciitilde{} \\textasciicircum{} \\textbackslash{}',
    );
  });
});
