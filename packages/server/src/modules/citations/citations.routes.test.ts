import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitationEntry } from '@bvdb/contract';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';
import { detectFormat, parseMedline } from './citation-parse.js';

const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
});
afterAll(async () => ctx.close());

const preview = (text: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/references/import/preview',
    headers: s.headers,
    payload: { text },
  });
const entriesOf = async (text: string) => {
  const res = await preview(text);
  expect(res.statusCode).toBe(200);
  return res.json<{ format: string; entries: CitationEntry[] }>();
};

describe('references from citation files', () => {
  it('finds the format from the content', () => {
    expect(detectFormat(fixture('studies.ris'))).toBe('ris');
    expect(detectFormat(fixture('studies.bib'))).toBe('bibtex');
    expect(detectFormat(fixture('studies.nbib'))).toBe('nbib');
    expect(detectFormat('Title,Author\nA,B')).toBeUndefined();
  });

  it('reads MEDLINE records with continued lines, the DOI and the PubMed id', () => {
    const [first] = parseMedline(fixture('studies.nbib'));
    expect(first).toEqual({
      title:
        'Biological variation of glycated haemoglobin (HbA1c) estimated in the EuBIVAS cohort: a Bayesian approach.',
      author: 'Braga F, Panteghini M',
      journal: 'Clin Chem Lab Med',
      volume: 58,
      pages: '457-465',
      year_of_publication: 2020,
      doi: '10.1515/cclm-2020-0001',
      pmid: '31000002',
    });
  });

  it('RIS: fields mapped, a duplicate of a stored reference by DOI, the form’s message for a bad year', async () => {
    const { format, entries } = await entriesOf(fixture('studies.ris'));
    expect(format).toBe('ris');
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({
      reference: {
        title: expect.stringMatching(/^The EuBIVAS: Within/),
        author: 'Aarsand AK, Díaz-Garzón J, Fernandez-Calle P',
        journal: 'Clin Chem',
        volume: 64,
        pages: '1380-1393',
        year_of_publication: 2018,
        doi: '10.9999/bvdb-test.2018.1',
        link: 'https://doi.org/10.9999/bvdb-test.2018.1',
      },
      problems: [],
      duplicate: null,
    });
    expect(entries[1]!.duplicate).toMatchObject({ by: 'doi', reference_id: expect.any(Number) });
    expect(entries[2]!.problems).toEqual([
      { path: 'year_of_publication', message: 'Year of Publication must be between 1800 and 2100' },
    ]);
  });

  it('BibTeX: the PubMed id kept, a duplicate inside the file found by title', async () => {
    const { entries } = await entriesOf(fixture('studies.bib'));
    expect(entries[0]!.reference.pubmed_link).toBe('https://pubmed.ncbi.nlm.nih.gov/31000001/');
    expect(entries[0]!.reference.pages).toBe('1-9');
    expect(entries[1]!.duplicate).toEqual({ by: 'title', reference_id: null, entry: 1 });
    expect(entries[2]!.duplicate).toMatchObject({ by: 'doi' });
  });

  it('nbib: a duplicate by DOI of a stored reference', async () => {
    const { entries } = await entriesOf(fixture('studies.nbib'));
    expect(entries[0]).toMatchObject({ duplicate: null, problems: [], pmid: '31000002' });
    expect(entries[1]!.duplicate).toMatchObject({ by: 'doi' });
  });

  it('a file of another kind is a 400 that says what was expected', async () => {
    const res = await preview('Author,Title\nSmith,BV\n');
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/not a RIS, BibTeX or PubMed \(.nbib\) file/);
  });

  it('creates the chosen references in one transaction, with an audit entry each; a duplicate refuses all', async () => {
    const { entries } = await entriesOf(fixture('studies.nbib'));
    const count = async () =>
      (await ctx.app.inject({ url: '/api/references', headers: s.headers })).json<{ references: unknown[] }>()
        .references.length;
    const before = await count();
    const all = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/references/import',
      headers: s.headers,
      payload: { references: entries.map((e) => e.reference) },
    });
    expect(all.statusCode).toBe(409);
    expect(all.json<{ fields: { path: string }[] }>().fields[0]!.path).toBe('references.1.doi');
    expect(await count()).toBe(before);
    const fresh = entries.filter((e) => !e.duplicate).map((e) => e.reference);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/references/import',
      headers: s.headers,
      payload: { references: fresh },
    });
    expect(res.statusCode).toBe(201);
    const [created] = res.json<{ references: { id: number }[] }>().references;
    expect(await count()).toBe(before + 1);
    const audit = await ctx.app.inject({ url: `/api/audit/reference/${created!.id}`, headers: s.headers });
    expect(audit.json<unknown[]>().length ?? JSON.stringify(audit.json())).toBeTruthy();
    expect(JSON.stringify(audit.json())).toMatch(/create/);
    // Previewed again, it is now a duplicate.
    expect((await entriesOf(fixture('studies.nbib'))).entries[0]!.duplicate).toMatchObject({ by: 'doi' });
  });
});
