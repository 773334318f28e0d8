import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bvSpecifications, references } from '../../db/schema.js';
import { analyteIdByName } from '../../test/analytes.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { listPresentedDatasets } from '../datasets/index.js';
import { datasetsToCsv } from './datasets-csv.js';
import { DATASET_COLUMNS, DATASET_USE_COLUMNS, exportCell, META_COLUMNS } from './export-columns.js';

let ctx: TestContext;
let creatinineId: number;
beforeAll(async () => {
  ctx = await createTestApp();
  creatinineId = await analyteIdByName(ctx.app, 'Creatinine');
});
afterAll(async () => ctx.close());

/** The dataset columns as published: scripts read them by name and by position (issue 14). */
const PUBLISHED_DATASET_HEADERS = [
  'Dataset ID',
  'Unique Identifier',
  'Measurand',
  'Matrix',
  'CVI (%)',
  'CVI CI lower (reported)',
  'CVI CI upper (reported)',
  'CVI CI lower (calculated)',
  'CVI CI upper (calculated)',
  'CVG (%)',
  'CVG CI lower (reported)',
  'CVG CI upper (reported)',
  'CVG CI lower (calculated)',
  'CVG CI upper (calculated)',
  'Analytical CV (%)',
  'BIVAC grade',
  'BIVAC items (QI1\u2013QI14)',
  'Included in meta-analysis',
  'State of well-being',
  'Diseases',
  'Sex',
  'Age mean',
  'Age min',
  'Age max',
  'Subjects',
  'Subjects in BV estimation',
  'Samples per subject',
  'Replicates',
  'Sampling interval',
  'Study duration',
  'Study duration units',
  'Unit',
  'Reference ID',
  'Reference title',
  'Authors',
  'Journal',
  'Year',
  'Volume',
  'Pages',
  'DOI',
  'SNOMED CT',
  'NPU',
  'LOINC',
  'Comment',
  'Demo record',
  'Updated',
];

async function openWorkbook(payload: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  return wb;
}

describe('spreadsheet exports', () => {
  it('export_by_analyte: every dataset, cell by cell, plus the meta-analysis and citation sheets', async () => {
    const res = await ctx.app.inject({ url: `/export_by_analyte/${creatinineId}.xlsx` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="BV_Creatinine.xlsx"');
    const wb = await openWorkbook(res.rawPayload);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Datasets', 'Meta-analysis', 'Citation', 'Read me']);
    const sheet = wb.getWorksheet('Datasets')!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      ...DATASET_COLUMNS.map((c) => c.header),
      'Used in meta-analysis',
      'Meta-analysis use',
    ]);
    // New columns only after the published ones, which keep their names and places.
    expect(DATASET_COLUMNS.slice(0, PUBLISHED_DATASET_HEADERS.length).map((c) => c.header)).toEqual(
      PUBLISHED_DATASET_HEADERS,
    );
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const api = (await ctx.app.inject({ url: `/api/analyte_specifications/${creatinineId}` })).json<
      Parameters<(typeof DATASET_COLUMNS)[number]['value']>[0][]
    >();
    expect(sheet.rowCount).toBe(api.length + 1);
    api.forEach((d, i) => {
      const row = sheet.getRow(i + 2);
      DATASET_COLUMNS.forEach((c, j) => {
        const expected = exportCell(c.value(d));
        const cell = row.getCell(j + 1).value;
        expect(cell ?? null).toEqual(expected);
      });
    });
    // Numbers stay numbers.
    expect(typeof sheet.getRow(2).getCell(5).value).toBe('number');
    const metas = wb.getWorksheet('Meta-analysis')!;
    expect(metas.rowCount).toBeGreaterThan(1);
    const citation = wb.getWorksheet('Citation')!;
    const text = citation
      .getColumn(1)
      .values.map((v) => (typeof v === 'string' ? v : ''))
      .join(' ');
    expect(text).toMatch(/copyright/);
    expect(text).toMatch(/Biological Variation Database/);
  });

  it("says whether each dataset was used and why not, beside the curator's flag (issue 27.8)", async () => {
    const res = await ctx.app.inject({ url: '/export/bv_database.xlsx' });
    const sheet = (await openWorkbook(res.rawPayload)).getWorksheet('Datasets')!;
    const col = (key: string) => DATASET_COLUMNS.findIndex((c) => c.key === key) + 1;
    const usedCol = DATASET_COLUMNS.length + 1;
    const whyCol = DATASET_COLUMNS.length + 2;
    expect(DATASET_USE_COLUMNS.map((c) => c.header)).toEqual(['Used in meta-analysis', 'Meta-analysis use']);
    // Every row agrees with the results the API answers: used = the dataset is in one of them.
    const metas = (await ctx.app.inject({ url: '/api/v1/metas?limit=1000' })).json<{
      data: { analyte_id: number }[];
    }>().data;
    const usedIds = new Set<number>();
    for (const analyteId of new Set(metas.map((m) => m.analyte_id))) {
      const one = (
        await ctx.app.inject({ url: `/api/meta_calculations/meta_by_analyte/${analyteId}` })
      ).json<{
        data: { metas: { datasets: { bv_specification_id: number }[] }[] }[];
      }>();
      for (const m of one.data[0]?.metas ?? [])
        for (const d of m.datasets) usedIds.add(d.bv_specification_id);
    }
    expect(usedIds.size).toBeGreaterThan(0);
    let flaggedUnused = 0;
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      const id = row.getCell(col('id')).value as number;
      const used = row.getCell(usedCol).value;
      const why = row.getCell(whyCol).value as string;
      expect(used).toBe(usedIds.has(id) ? 'Yes' : 'No');
      if (used === 'Yes') expect(why).toMatch(/^Used for CV/);
      if (row.getCell(col('included')).value === 'Yes' && used === 'No') {
        flaggedUnused++;
        expect(why).toMatch(/^(Flagged for inclusion, left out|Used for)/);
      }
      if (row.getCell(col('included')).value === 'No') expect(why).toBe('Not included by the curator');
    }
    // The demo data hold datasets flagged for inclusion that no estimate uses (decision 014).
    expect(flaggedUnused).toBeGreaterThan(0);
  });

  it('tags each lower/upper pair with what it is: "95 % CI" or "range" (issue 27.7)', async () => {
    const res = await ctx.app.inject({ url: `/export_by_analyte/${creatinineId}.xlsx` });
    const sheet = (await openWorkbook(res.rawPayload)).getWorksheet('Meta-analysis')!;
    expect(META_COLUMNS.at(-1)!.header).toBe('Limits are');
    const n = META_COLUMNS.findIndex((c) => c.key === 'n') + 1;
    const tags = new Set<string>();
    for (let r = 2; r <= sheet.rowCount; r++) {
      const row = sheet.getRow(r);
      const tag = row.getCell(META_COLUMNS.length).value as string;
      const studies = row.getCell(n).value as number;
      expect(tag).toBe(studies > 10 || studies === 1 ? '95 % CI' : studies === 0 ? 'none' : 'range');
      tags.add(tag);
    }
    expect(tags.size).toBeGreaterThan(0);
  });

  it('the Citation column reads as Vancouver text: nothing unknown printed', async () => {
    const [spec] = await ctx.database.db
      .select({ referenceId: bvSpecifications.referenceId })
      .from(bvSpecifications)
      .where(eq(bvSpecifications.analyteId, creatinineId))
      .limit(1);
    await ctx.database.db
      .update(references)
      .set({ volume: null, pages: null, journal: null })
      .where(eq(references.id, spec!.referenceId));
    ctx.app.deps.cache.invalidate();
    const res = await ctx.app.inject({ url: `/export_by_analyte/${creatinineId}.xlsx` });
    const sheet = (await openWorkbook(res.rawPayload)).getWorksheet('Datasets')!;
    const col = DATASET_COLUMNS.findIndex((c) => c.key === 'citation') + 1;
    const texts = sheet
      .getColumn(col)
      .values.slice(2)
      .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts) {
      expect(t).toMatch(/\.$/);
      expect(t).not.toMatch(/Unknown|;0:|N\/A|n\.d\.|\.\./);
    }
  });

  it('neutralises cells that a spreadsheet would run as formulas', async () => {
    await ctx.database.db
      .update(bvSpecifications)
      .set({ comment: '=HYPERLINK("http://evil.example","x")' })
      .where(eq(bvSpecifications.analyteId, creatinineId));
    ctx.app.deps.cache.invalidate();
    const res = await ctx.app.inject({ url: `/export_by_analyte/${creatinineId}.xlsx` });
    const sheet = (await openWorkbook(res.rawPayload)).getWorksheet('Datasets')!;
    const col = DATASET_COLUMNS.findIndex((c) => c.key === 'comment') + 1;
    expect(sheet.getRow(2).getCell(col).value).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(sheet.getRow(2).getCell(col).formula).toBeUndefined();
  });

  it('writes numbers with at most 4 decimals, in the xlsx and the CSV (no unrounded floats)', async () => {
    await ctx.database.db
      .update(bvSpecifications)
      .set({ calculatedWithinLower: 4.812345678901, calculatedWithinUpper: 6.700000000000001 })
      .where(eq(bvSpecifications.analyteId, creatinineId));
    ctx.app.deps.cache.invalidate();
    const res = await ctx.app.inject({ url: `/export_by_analyte/${creatinineId}.xlsx` });
    const sheet = (await openWorkbook(res.rawPayload)).getWorksheet('Datasets')!;
    const lower = DATASET_COLUMNS.findIndex((c) => c.key === 'calculated_within_bv_lower_ci') + 1;
    const upper = DATASET_COLUMNS.findIndex((c) => c.key === 'calculated_within_bv_upper_ci') + 1;
    expect(sheet.getRow(2).getCell(lower).value).toBe(4.8123);
    expect(sheet.getRow(2).getCell(upper).value).toBe(6.7);
    const csv = (await ctx.app.inject({ url: '/export/bv_database.csv' })).body;
    const numbers = csv.split(/[,\r\n]+/).filter((c) => /^-?\d+\.\d+$/.test(c));
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.filter((c) => /\.\d{5,}$/.test(c))).toEqual([]);
  });

  it('export_by_reference names the file after the paper; unknown ids 404, bad names 400', async () => {
    const res = await ctx.app.inject({ url: '/export_by_reference/1.xlsx' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="BV_.+_ref1\.xlsx"$/);
    expect((await ctx.app.inject({ url: '/export_by_reference/999999.xlsx' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: '/export_by_reference/abc.xlsx' })).statusCode).toBe(400);
  });

  it('the whole database as CSV and as xlsx', async () => {
    const csv = await ctx.app.inject({ url: '/export/bv_database.csv' });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('Dataset ID,Unique Identifier,Measurand');
    expect(lines.length).toBe(203);
    // Sent a page at a time (issue 44.2), it is still the one file of every published dataset.
    const published = await listPresentedDatasets(ctx.database.db, { signedIn: false });
    expect(csv.body).toBe(datasetsToCsv(published));
    const xlsx = await ctx.app.inject({ url: '/export/bv_database.xlsx' });
    const wb = await openWorkbook(xlsx.rawPayload);
    expect(wb.getWorksheet('Datasets')!.rowCount).toBe(203);
  });
});
