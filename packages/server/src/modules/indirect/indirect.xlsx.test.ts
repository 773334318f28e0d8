import { PassThrough } from 'node:stream';
import { IndirectResponseSchema } from '@bvdb/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { FIXTURE_HEADER, fixtureRows } from './extract-fixture.js';
import { readExtractWorkbook } from './indirect-run.js';

// xlsx extracts are read a row at a time (decision 100): up to 1,000,000 rows within bounded memory
// (a 100,000-row extract was a 413 when the whole workbook was expanded: more than 500,000 cells).

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

/**
 * An extract as Excel stores one: the sheet before the shared texts (exceljs's streaming writer
 * does the same), dates as date cells, values as numbers.
 */
async function extractXlsx(rows: string[][], sheet = 'Results'): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true, useStyles: true });
  const ws = wb.addWorksheet(sheet);
  ws.getColumn(2).numFmt = 'yyyy-mm-dd hh:mm';
  ws.addRow(FIXTURE_HEADER).commit();
  for (const [patient, when, value, unit, sex, age, setting] of rows) {
    ws.addRow([
      patient,
      new Date(`${when!.replace(' ', 'T')}:00Z`),
      Number(value),
      unit,
      sex,
      Number(age),
      setting,
    ]).commit();
  }
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

function multipart(body: Buffer, name: string) {
  const boundary = '----bvdbindirectxlsx';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      body,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('xlsx extracts (decision 100)', () => {
  it('an extract of 100,000 rows of seven columns is read and estimated', async () => {
    const rows = fixtureRows({ patients: 34_000, seed: 100, cvi: 6, cva: 2 }).slice(0, 100_000);
    expect(rows).toHaveLength(100_000);
    const file = await extractXlsx(rows);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/indirect?methods=result_ratio&bootstrap=20&cva=2',
      ...multipart(file, 'extract.xlsx'),
    });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const body = IndirectResponseSchema.parse(res.json());
    expect(body.input).toMatchObject({
      format: 'xlsx',
      rows: 100_000,
      unit: 'mmol/L',
      columns: { patient: 'Patient ID', time: 'Collected', value: 'Result', sex: 'Sex', setting: 'Setting' },
    });
    expect(body.input.steps).toEqual([]);
    expect(body.all.pairing.results).toBe(100_000);
    expect(body.all.methods[0]!.cvi).toBeGreaterThan(4);
    expect(body.all.methods[0]!.cvi).toBeLessThan(8);
    // Strata by sex and setting were read from the text cells.
    expect(body.strata.length).toBeGreaterThan(0);
  }, 120_000);

  it('reads the rows up to the bound, and 413 at the first row past it', async () => {
    const rows = fixtureRows({ patients: 400, seed: 7 }).slice(0, 1_001);
    const atBound = await readExtractWorkbook(await extractXlsx(rows.slice(0, 1_000)), {}, 1_000);
    expect(atBound.input.rows).toBe(1_000);
    expect(atBound.results).toHaveLength(1_000);
    // Date cells arrive as times, the same instant as written.
    expect(atBound.results[0]!.time).toBe(Date.parse(`${rows[0]![1]!.replace(' ', 'T')}:00Z`));
    const past = await readExtractWorkbook(await extractXlsx(rows), {}, 1_000).catch((e: unknown) => e);
    expect(past).toBeInstanceOf(AppError);
    expect((past as AppError).code).toBe('payload_too_large');
    expect((past as AppError).message).toMatch(/^The file has more than 1,000 rows: at most 1,000 are read/);
  });

  it('reads the sheet named Results, else the first sheet', async () => {
    const rows = fixtureRows({ patients: 20, seed: 3 });
    const other = await readExtractWorkbook(await extractXlsx(rows, 'Export'), {});
    expect(other.input.rows).toBe(rows.length);
  });

  it('a file named .xlsx that is not one, and a damaged workbook: 400, never a 500', async () => {
    const upload = (body: Buffer) =>
      ctx.app.inject({ method: 'POST', url: '/api/v1/indirect', ...multipart(body, 'extract.xlsx') });
    const notZip = await upload(Buffer.from('patient,time,value\n'));
    expect(notZip.statusCode, notZip.body).toBe(400);
    expect(notZip.json<{ message: string }>().message).toMatch(/named \.xlsx but is not an \.xlsx workbook/);
    const good = await extractXlsx(fixtureRows({ patients: 50, seed: 5 }));
    const cut = await upload(good.subarray(0, Math.floor(good.length * 0.6)));
    expect(cut.statusCode, cut.body.slice(0, 300)).toBe(400);
    // The sheet's packed bytes scrambled (its local header first names it).
    const damaged = Buffer.from(good);
    const at = damaged.indexOf('xl/worksheets/sheet1.xml') + 40;
    for (let i = at; i < at + 200; i++) damaged[i] = (damaged[i]! * 7 + 13) & 0xff;
    const bad = await upload(damaged);
    expect(bad.statusCode, bad.body.slice(0, 300)).toBe(400);
  });
});
