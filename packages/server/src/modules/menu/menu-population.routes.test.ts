import ExcelJS from 'exceljs';
import { ApplicationsSchema, MenuResponseSchema } from '@bvdb/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyteIdByName } from '../../test/analytes.js';
import { makeAthletesOfCholesterol } from '../../test/athletes-population.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/** The test menu judged for a population (issue 47.3, decision 098). */
let ctx: TestContext;
let cholId: number;
let altId: number;
const TESTS = {
  tests: [
    { name: 'Cholesterol (total)', cva: 2, bias: 1 },
    { name: 'Alanine aminotransferase (ALT)', cva: 4, bias: 2 },
  ],
};

beforeAll(async () => {
  ctx = await createTestApp();
  cholId = await analyteIdByName(ctx.app, 'Cholesterol (total)');
  altId = await analyteIdByName(ctx.app, 'Alanine aminotransferase (ALT)');
  await makeAthletesOfCholesterol(ctx.database.db, cholId);
});
afterAll(async () => ctx.close());

const post = (query = '') => ctx.app.inject({ method: 'POST', url: `/api/v1/menu${query}`, payload: TESTS });

describe('POST /api/v1/menu?facet.…', () => {
  it("judges each test with its measurand's population estimates, the table's, and says so on every line", async () => {
    const res = await post('?facet.state=athletes');
    expect(res.statusCode, res.body).toBe(200);
    const sheet = MenuResponseSchema.parse(res.json());
    expect(sheet.population).toEqual({
      selection: { state: ['athletes'] },
      key: 'state=athletes',
      label: 'athletes',
      sentence: 'Population: athletes — recomputed per measurand from its matching studies',
    });
    const table = ApplicationsSchema.parse(
      (await ctx.app.inject({ url: '/api/v1/applications?facet.state=athletes&cva=2' })).json(),
    );
    const row = table.data.find((r) => r.measurand_id === cholId)!;
    const chol = sheet.tests[0]!;
    expect(chol.match?.measurand_id).toBe(cholId);
    expect(chol.estimate).toMatchObject({
      id: null,
      median: row.cvi!.median,
      lower: row.cvi!.lower,
      upper: row.cvi!.upper,
      number_used: row.cvi!.number_used,
      updated_at: null,
      estimate_id: null,
      version: null,
      as_shown: `/api/v1/measurands/${cholId}/metas?facet.state=athletes`,
    });
    // The table at the lab's CVA 2 gives the same RCV as the menu line with CVA 2.
    expect(chol.rcv?.up).toBe(row.rcv.up.value);
    expect(chol.population).toEqual(row.population);

    const alt = sheet.tests[1]!;
    expect(alt.match?.measurand_id).toBe(altId);
    expect(alt.estimate).toBeNull();
    expect(alt.aps_met).toBeNull();
    expect(alt.population).toEqual({
      key: 'state=athletes',
      studies: 0,
      note: 'No estimate for this population',
      sentence: 'Population: athletes — no estimate for this population (no eligible study matches)',
    });
  });

  it('is 400 for an unknown facet value, naming the allowed ones', async () => {
    const res = await post('?facet.interval=fortnights');
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(
      'facet.interval: "fortnights" is not a value of this facet; allowed: days, weeks, months',
    );
  });

  it('without facets judges with the stored estimates and has no population key', async () => {
    const res = await post();
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('population');
    const sheet = MenuResponseSchema.parse(res.json());
    expect(sheet.tests[0]!.estimate?.id).toEqual(expect.any(Number));
    expect(sheet.tests[1]!.estimate?.id).toEqual(expect.any(Number));
  });

  it('the workbook says the population on every line (a last column) and in its notes', async () => {
    const res = await post('?facet.state=athletes&format=xlsx');
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.at(-1)).toBe('Population');
    const at = header.length;
    expect(sheet.getRow(2).getCell(at).text).toMatch(/^Population: athletes — recomputed from \d+ studies$/);
    expect(sheet.getRow(3).getCell(at).text).toBe(
      'Population: athletes — no estimate for this population (no eligible study matches)',
    );
    const texts = wb.worksheets.flatMap((w) => w.getSheetValues().flat(2).map(String));
    expect(texts).toContain('Population: athletes — recomputed per measurand from its matching studies');
    const plain = await post('?format=xlsx');
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(plain.rawPayload as unknown as ArrayBuffer);
    expect((wb2.worksheets[0]!.getRow(1).values as unknown[]).slice(1)).not.toContain('Population');
  });
});
