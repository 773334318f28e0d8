import ExcelJS from 'exceljs';
import {
  ApplicationsSchema,
  type Applications,
  type ApplicationsRow,
  MetaListItemSchema,
} from '@bvdb/contract';
import {
  calculateAps,
  indexOfIndividuality,
  normalQuantile,
  parseCsv,
  rcvAsymmetric,
  roundHalfUp,
} from '@bvdb/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractJson } from '../../lib/contract-json.js';
import { signInAs } from '../../test/sign-in.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const table = async (query = ''): Promise<Applications> => {
  const res = await ctx.app.inject({ url: `/api/v1/applications${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return ApplicationsSchema.parse(res.json());
};

/** Every displayed result, read through another endpoint (the v1 list), by id. */
async function allMetas() {
  const res = await ctx.app.inject({ url: '/api/v1/metas?limit=1000' });
  const data = z.object({ data: z.array(MetaListItemSchema) }).parse(res.json()).data;
  return new Map(data.map((m) => [m.id, m]));
}

/** The displayed rounding of the page: one decimal (two for the II). */
const same = (a: number | null | undefined, b: number, decimals = 1) => {
  expect(a).not.toBeNull();
  expect(roundHalfUp(a!, decimals)).toBe(roundHalfUp(b, decimals));
  expect(Math.abs(a! - b)).toBeLessThan(1e-9);
};

/** Checks one row against the domain's formulas, written out independently of the row's code. */
function checkRow(
  r: ApplicationsRow,
  level: 'minimum' | 'desirable' | 'optimal',
  z: number,
  cva: number | null,
) {
  const cvi = r.cvi!.median;
  const aps = calculateAps(cvi, r.cvg?.median ?? 0)[level];
  same(r.aps.imprecision.value, aps.imprecision);
  same(r.aps.mau.value, aps.mau);
  const usedCva = cva ?? 0.5 * cvi;
  expect(r.rcv.cva_source).toBe(cva === null ? 'desirable' : 'user');
  same(r.rcv.cva, usedCva);
  const rcv = rcvAsymmetric(cvi, usedCva, z);
  same(r.rcv.up.value, rcv.up);
  same(r.rcv.down.value, rcv.down);
  if (r.cvi!.lower !== null && r.cvi!.upper !== null) {
    same(r.rcv.up.range?.lower, rcvAsymmetric(r.cvi!.lower, usedCva, z).up);
    same(r.rcv.up.range?.upper, rcvAsymmetric(r.cvi!.upper, usedCva, z).up);
    same(r.aps.mau.range?.lower, calculateAps(r.cvi!.lower, 0)[level].mau);
    expect(r.rcv.up.range?.limits).toBe(r.cvi!.limits);
  }
  if (r.cvg && r.cvg.median > 0) {
    same(r.aps.bias.value, aps.bias);
    same(r.aps.total_error.value, aps.totalError);
    same(r.ii.value, indexOfIndividuality(cvi, r.cvg.median), 2);
    const { lower: il, upper: iu } = r.cvi!;
    const { lower: gl, upper: gu } = r.cvg;
    if (il !== null && iu !== null && gl !== null && gu !== null && gl > 0) {
      same(r.aps.total_error.range?.lower, calculateAps(il, gl)[level].totalError);
      same(r.aps.total_error.range?.upper, calculateAps(iu, gu)[level].totalError);
      same(r.ii.range?.lower, il / gu, 2);
      same(r.ii.range?.upper, iu / gl, 2);
    }
  } else {
    for (const v of [r.aps.bias, r.aps.total_error, r.ii]) {
      expect(v).toEqual({ value: null, range: null, why: 'no CVG estimate' });
    }
  }
}

describe('GET /api/v1/applications (issue 32.1, 32.5)', () => {
  it('by default one row per measurand, in its headline matrix, with the estimates the v1 API lists', async () => {
    const t = await table();
    expect(t.parameters).toMatchObject({
      level: 'desirable',
      probability: 0.95,
      cva: null,
      matrices: 'displayed',
    });
    expect(t.parameters.z).toBeCloseTo(1.96, 2);
    expect(t.data.length).toBeGreaterThan(10);
    expect(new Set(t.data.map((r) => r.measurand_id)).size).toBe(t.data.length);
    expect(t.data.every((r) => r.headline)).toBe(true);
    // The same headline as the measurands list says.
    const measurands = (await ctx.app.inject({ url: '/api/v1/measurands?limit=1000' })).json<{
      data: {
        id: number;
        headline: { matrix: string; cvi: { meta_id: number } | null; cvg: { meta_id: number } | null } | null;
      }[];
    }>().data;
    // The headline there names a result only with both limits; here an estimate without limits
    // still shows (its range is missing), so every headline result is the row's.
    for (const r of t.data) {
      const h = measurands.find((m) => m.id === r.measurand_id)?.headline;
      expect(r.matrix).toBe(h?.matrix);
      if (h?.cvi) expect(r.cvi?.id).toBe(h.cvi.meta_id);
      if (h?.cvg) expect(r.cvg?.id).toBe(h.cvg.meta_id);
      if (r.cvi && !h?.cvi) expect([r.cvi.lower, r.cvi.upper]).toContain(null);
    }
    const metas = await allMetas();
    for (const r of t.data) {
      for (const e of [r.cvi, r.cvg]) {
        if (!e) continue;
        const m = metas.get(e.id!)!;
        expect(m.analyte_id).toBe(r.measurand_id);
        expect(m.matrix).toBe(r.matrix);
        expect([e.median, e.lower, e.upper, e.limits, e.number_used]).toEqual([
          m.median,
          m.lower,
          m.upper,
          m.limits,
          m.number_used,
        ]);
      }
    }
    // Sorted by measurand name, as the other lists.
    const names = t.data.map((r) => r.display_name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('every number equals the domain formulas on the whole demo menu, at every level, probability and CVA', async () => {
    for (const [query, level, p, cva] of [
      ['', 'desirable', 0.95, null],
      ['?level=minimum&probability=0.99', 'minimum', 0.99, null],
      ['?level=optimal&probability=0.9&cva=3.5&matrices=all', 'optimal', 0.9, 3.5],
    ] as const) {
      const t = await table(query);
      const z = normalQuantile(1 - (1 - p) / 2);
      expect(t.parameters.z).toBeCloseTo(z, 12);
      const withCvi = t.data.filter((r) => r.cvi);
      expect(withCvi.length).toBeGreaterThan(10);
      for (const r of withCvi) checkRow(r, level, z, cva);
      for (const r of t.data.filter((x) => !x.cvi)) {
        expect(r.aps.imprecision.why).toBe('no CVI estimate');
        expect(r.rcv.up.value).toBeNull();
      }
    }
  });

  it('matrices=all adds the other matrices, every displayed result in exactly one row', async () => {
    const shown = await table();
    const all = await table('?matrices=all');
    expect(all.data.length).toBeGreaterThan(shown.data.length);
    expect(all.data.filter((r) => r.headline).length).toBe(shown.data.length);
    const ids = all.data.flatMap((r) => [r.cvi?.id, r.cvg?.id]).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe((await allMetas()).size);
  });

  it.each([
    ['?level=best', /level/],
    ['?probability=1', /probability must be greater than 0.5 and at most 0.999999998/],
    ['?probability=0.4', /probability must be greater than 0.5 and at most 0.999999998/],
    ['?probability=abc', /probability/],
    ['?cva=-1', /cva must be between 0 and 100/],
    ['?cva=x', /cva/],
    ['?matrices=some', /matrices/],
  ])('%s → 400 with a message', async (query, message) => {
    const res = await ctx.app.inject({ url: `/api/v1/applications${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(message);
  });

  it('written in steps, is the text the contract writes for the whole table (issue 44.1)', async () => {
    for (const query of ['', '?matrices=all&level=optimal&cva=3']) {
      const res = await ctx.app.inject({ url: `/api/v1/applications${query}` });
      const parsed: unknown = res.json();
      // Read back and written again by the contract: the same keys in the same order, the same numbers.
      expect(res.body).toBe(contractJson(ApplicationsSchema, ApplicationsSchema.parse(parsed)));
      expect((parsed as Applications).data.length).toBeGreaterThan(40);
    }
  });

  it('is a kept public read: an ETag, 304, one answer per validated query', async () => {
    const first = await ctx.app.inject({ url: '/api/v1/applications?level=optimal' });
    expect(first.headers.etag).toBeTruthy();
    const again = await ctx.app.inject({
      url: '/api/v1/applications?level=optimal&utm_source=x',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('the files: CSV and xlsx carry the same numbers, rounded like every export', async () => {
    const t = await table('?level=minimum');
    const csv = await ctx.app.inject({ url: '/api/v1/applications/bv_applications.csv?level=minimum' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/bv_applications_minimum_.*\.csv/);
    const rows = parseCsv(csv.body);
    const header = rows[0]!;
    expect(header.slice(0, 4)).toEqual(['Measurand', 'Matrix', 'Displayed estimate', 'CVI %']);
    expect(rows.length - 1).toBe(t.data.length);
    const col = (name: string) => header.indexOf(name);
    for (const [i, r] of t.data.entries()) {
      const line = rows[i + 1]!;
      expect(line[col('Measurand')]).toBe(r.display_name);
      if (r.aps.total_error.value !== null)
        expect(Number(line[col('Minimum TEa %')])).toBeCloseTo(r.aps.total_error.value, 2);
      else {
        // Numbers only in a numeric column; the words in a column of their own (issue 42.9).
        expect(line[col('Minimum TEa %')]).toBe('');
        expect(line[col('Minimum TEa % missing because')]).toBe('no CVG estimate');
      }
      if (r.rcv.up.value !== null) expect(Number(line[col('RCV up %')])).toBeCloseTo(r.rcv.up.value, 2);
    }
    // Every column whose name ends in "%" holds numbers or nothing.
    for (const [j, name] of header.entries())
      if (/%$/.test(name))
        for (const line of rows.slice(1))
          expect(line[j]!, `${name}: ${line[j]}`).toMatch(/^(-?\d+(\.\d+)?)?$/);
    expect(t.data.some((r) => r.aps.total_error.value === null)).toBe(true);
    const xlsx = await ctx.app.inject({ url: '/api/v1/applications/bv_applications.xlsx?level=minimum' });
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Table')!;
    expect(sheet.rowCount - 1).toBe(t.data.length);
    expect(sheet.getRow(2).getCell(1).text).toBe(t.data[0]!.display_name);
    const readMe = wb.getWorksheet('Read me')!;
    const notes = readMe.getColumn(1).values.map(String);
    expect(notes).toContain('APS source');
    expect((await ctx.app.inject({ url: '/api/v1/applications/x.pdf' })).statusCode).toBe(400);
    expect(
      (await ctx.app.inject({ url: '/api/v1/applications/bv_applications.csv?probability=2' })).statusCode,
    ).toBe(400);
  });

  it('follows a change of the data: a deleted dataset moves the estimate and the kept answer lets go', async () => {
    const before = await table();
    const row = before.data.find((r) => r.cvi && r.cvi.number_used >= 2)!;
    const metas = (await ctx.app.inject({ url: `/api/v1/measurands/${row.measurand_id}/metas` })).json<{
      metas: { id: number; datasets: { bv_specification_id: number }[] }[];
    }>().metas;
    const datasetId = metas.find((m) => m.id === row.cvi!.id)!.datasets[0]!.bv_specification_id;
    const s = await signInAs(ctx.app);
    const { version } = (await ctx.app.inject({ url: `/api/bv_specifications/${datasetId}` })).json<{
      dataset: { version: number };
    }>().dataset;
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/bv_specifications/${datasetId}?version=${version}`,
      headers: s.headers,
    });
    expect(del.statusCode, del.body).toBe(200);
    await ctx.app.deps.recompute.settle();
    const after = (await table()).data.find(
      (r) => r.measurand_id === row.measurand_id && r.matrix === row.matrix,
    );
    expect(after?.cvi?.number_used).toBe(row.cvi!.number_used - 1);
  });
});
