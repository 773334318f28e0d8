import ExcelJS from 'exceljs';
import {
  ApplicationsSchema,
  MenuResponseSchema,
  type Applications,
  type MenuResponse,
  type MenuTestResult,
} from '@bvdb/contract';
import { calculateAps, rcvAsymmetric, roundHalfUp } from '@bvdb/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let demo: Applications;
beforeAll(async () => {
  ctx = await createTestApp();
  demo = ApplicationsSchema.parse(
    (await ctx.app.inject({ url: '/api/v1/applications?matrices=all' })).json(),
  );
});
afterAll(async () => ctx.close());

const post = async (payload: unknown, query = '') => {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/v1/menu${query}`,
    payload: payload as object,
  });
  expect(res.statusCode, res.body).toBe(200);
  return MenuResponseSchema.parse(res.json());
};

const postCsv = (csv: string, query = '') =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/v1/menu${query}`,
    headers: { 'content-type': 'text/csv' },
    payload: csv,
  });

function multipart(body: Buffer | string, name: string) {
  const boundary = '----bvdbmenu';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.isBuffer(body) ? body : Buffer.from(body),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Equal within the displayed rounding (one decimal, two for II and sigma) and to 1e-9. */
const same = (a: number | null | undefined, b: number, decimals = 1) => {
  expect(a).not.toBeNull();
  expect(roundHalfUp(a!, decimals)).toBe(roundHalfUp(b, decimals));
  expect(Math.abs(a! - b)).toBeLessThan(1e-9);
};

const best = (value: number, spec: (l: 'optimal' | 'desirable' | 'minimum') => number) =>
  value <= spec('optimal')
    ? 'optimal'
    : value <= spec('desirable')
      ? 'desirable'
      : value <= spec('minimum')
        ? 'minimum'
        : 'none';

/** One test against the formulas written out here, independently of the module's code. */
function checkTest(t: MenuTestResult, cva: number, bias: number, z: number) {
  const cvi = t.estimate!.median;
  const cvg = t.estimate_cvg?.median ?? null;
  const aps = calculateAps(cvi, cvg ?? 0);
  const te = Math.abs(bias) + 1.65 * cva;
  same(t.lab.te, te);
  same(t.lab.expanded_uncertainty, 2 * cva);
  expect(t.aps_met!.imprecision).toBe(best(cva, (l) => aps[l].imprecision));
  expect(t.aps_met!.mau).toBe(best(2 * cva, (l) => aps[l].mau));
  const rcv = rcvAsymmetric(cvi, cva, z);
  same(t.rcv!.up, rcv.up);
  same(t.rcv!.down, rcv.down);
  if (cvg !== null && cvg > 0) {
    expect(t.aps_met!.bias).toBe(best(Math.abs(bias), (l) => aps[l].bias));
    expect(t.aps_met!.total_error).toBe(best(te, (l) => aps[l].totalError));
    for (const l of ['optimal', 'desirable', 'minimum'] as const) {
      same(t.sigma![l], (aps[l].totalError - Math.abs(bias)) / cva, 2);
    }
    same(t.ii, cvi / cvg, 2);
    const iiCva = Math.sqrt(cvi * cvi + cva * cva) / cvg;
    same(t.ii_with_cva, iiCva, 2);
    expect(t.prri_useful).toBe(iiCva < 0.6);
  } else {
    expect(t.aps_met!.bias).toBeNull();
    expect(t.aps_met!.total_error).toBeNull();
    expect(t.ii).toBeNull();
    expect(t.prri_useful).toBeNull();
  }
  const { lower, upper } = t.estimate!;
  if (lower !== null && upper !== null) {
    same(t.rcv_ranges!.up!.lower, rcvAsymmetric(lower, cva, z).up);
    same(t.rcv_ranges!.up!.upper, rcvAsymmetric(upper, cva, z).up);
    // The interval is judged against the strictest specification its limits give.
    expect(t.aps_met_over_limits!.imprecision).toBe(
      best(cva, (l) => Math.min(aps[l].imprecision, calculateAps(lower, 0)[l].imprecision)),
    );
  }
  expect(t.estimate!.permalink).toBe(
    `/analytes/${t.match!.measurand_id}?${new URLSearchParams({ matrix: t.match!.matrix, type: 'CVI' }).toString()}`,
  );
  expect(t.estimate!.as_shown).toMatch(
    new RegExp(`^/api/v1/measurands/${t.match!.measurand_id}/metas\\?as_of=`),
  );
}

describe('POST /api/v1/menu (issue 32.2–3)', () => {
  it('judges the whole demo menu (every measurand × matrix), each number equal to the formulas', async () => {
    expect(demo.data.length).toBeGreaterThan(20);
    // A lab's values that land on every level somewhere: CVA and bias as fractions of the CVI.
    const tests = demo.data.map((r, i) => {
      const cvi = r.cvi?.median ?? 5;
      return {
        code: String(r.measurand_id),
        matrix: r.matrix,
        cva: roundHalfUp(cvi * [0.2, 0.45, 0.7, 0.9][i % 4]!, 2),
        bias: roundHalfUp(cvi * [0.1, -0.3, 0.6, -1.2][i % 3]!, 2),
      };
    });
    const answer = await post({ tests, level: 'desirable', probability: 0.95 });
    expect(answer.tests).toHaveLength(tests.length);
    expect(answer.summary).toMatchObject({ tests: tests.length, unmatched: 0, ambiguous: 0 });
    answer.tests.forEach((t, i) => {
      const row = demo.data[i]!;
      expect(t.line).toBe(i + 1);
      expect(t.match).toEqual({
        measurand_id: row.measurand_id,
        display_name: row.display_name,
        matrix: row.matrix,
      });
      expect(t.estimate?.id).toBe(row.cvi?.id);
      checkTest(t, tests[i]!.cva, tests[i]!.bias, answer.parameters.z);
    });
    const levels = new Set(answer.tests.map((t) => t.aps_met?.imprecision));
    expect(levels).toEqual(new Set(['optimal', 'desirable', 'minimum', 'none']));
  });

  it('a probability of 0.99 widens the RCV (z 2.576)', async () => {
    const row = demo.data[0]!;
    const answer = await post({ tests: [{ code: String(row.measurand_id), cva: 2 }], probability: 0.99 });
    expect(answer.parameters.z).toBeCloseTo(2.576, 3);
    same(answer.tests[0]!.rcv!.up, rcvAsymmetric(row.cvi!.median, 2, answer.parameters.z).up);
  });

  it('CSV: names any case, alternative names, unmatched and ambiguous lines listed with candidates in order', async () => {
    const csv = [
      'Test name;Specimen;Unit;CV %;Bias %',
      'sodium;;mmol/L;0,6;0,3',
      'ALT;Serum;U/L;4;2',
      'Sodim;;mmol/L;0.6;0.3',
      'Creatinine;Cerebrospinal fluid;µmol/L;3;1',
      'Urea (BUN or ALT);;;10;5',
    ].join('\n');
    const res = await postCsv(csv);
    expect(res.statusCode, res.body).toBe(200);
    const answer: MenuResponse = MenuResponseSchema.parse(res.json());
    const [sodium, alt, typo, csf, aer] = answer.tests;
    // Numbered from 1 as the page, the sheet and a kept link number them (issue 42.2), not by file row.
    expect(answer.tests.map((t) => t.line)).toEqual([1, 2, 3, 4, 5]);
    expect(sodium).toMatchObject({ status: 'matched', match: { display_name: 'Sodium' }, lab: { cva: 0.6 } });
    expect(alt?.match?.display_name).toBe('Alanine aminotransferase (ALT)');
    // A typo is never guessed: unmatched, with the nearest names to choose from.
    expect(typo).toMatchObject({ status: 'unmatched', match: null, aps_met: null, rcv: null });
    expect(typo?.candidates.map((c) => c.display_name)).toContain('Sodium');
    // A matrix without an estimate: the measurand's matrices are offered.
    expect(csf?.status).toBe('unmatched');
    expect(csf?.candidates.length).toBeGreaterThan(0);
    expect(csf?.candidates.every((c) => c.display_name === 'Creatinine')).toBe(true);
    // Two measurands fit (urea and ALT by their names in the parentheses): ambiguous, both offered.
    expect(aer?.status).toBe('ambiguous');
    expect(new Set(aer?.candidates.map((c) => c.measurand_id)).size).toBeGreaterThanOrEqual(2);
    expect(answer.summary).toEqual({ tests: 5, matched: 2, unmatched: 2, ambiguous: 1 });
  });

  it('misspelt names (a cut name, two letters swapped, a letter dropped) are offered the measurand meant', async () => {
    // As the menu bench misspells (decision 074: the typo search walks a trie of the words now).
    // Names without an abbreviation in parentheses: a misspelt name with its abbreviation intact is matched by it.
    const names = [...new Set(demo.data.map((r) => r.display_name))]
      .filter((n) => n.length >= 8 && !n.includes('('))
      .slice(0, 6);
    expect(names.length).toBe(6);
    const misspelt = names.flatMap((n) => [
      `${n.slice(0, -2)}zz`,
      `${n.slice(0, 3)}${n[4]}${n[3]}${n.slice(5)}`,
      `${n.slice(0, 5)}${n.slice(6)}`,
    ]);
    const answer = await post({ tests: misspelt.map((name) => ({ name, cva: 2 })) });
    answer.tests.forEach((t, i) => {
      const meant = names[Math.floor(i / 3)]!;
      expect(t.status, misspelt[i]).toBe('unmatched');
      expect(t.match).toBeNull();
      expect(
        t.candidates.map((c) => c.display_name),
        `${misspelt[i]} is offered ${meant}`,
      ).toContain(meant);
    });
  });

  it('a candidate chosen is sent back as its id and matrix and is then matched', async () => {
    const res = await postCsv('name,matrix,cva,bias\nUrea (BUN or ALT),,10,5\n');
    const choice = MenuResponseSchema.parse(res.json()).tests[0]!.candidates[1]!;
    const again = await post({
      tests: [
        {
          name: 'Urea (BUN or ALT)',
          code: String(choice.measurand_id),
          matrix: choice.matrix,
          cva: 10,
          bias: 5,
        },
      ],
    });
    expect(again.tests[0]).toMatchObject({
      status: 'matched',
      match: choice,
      input: { name: 'Urea (BUN or ALT)' },
    });
  });

  it('the template (CSV and xlsx) is offered and uploads as it stands', async () => {
    const csv = await ctx.app.inject({ url: '/api/v1/menu/menu_template.csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe('name,code,matrix,unit,cva,bias,te');
    const fromCsv = MenuResponseSchema.parse((await postCsv(csv.body)).json());
    const xlsx = await ctx.app.inject({ url: '/api/v1/menu/menu_template.xlsx' });
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const upload = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menu',
      ...multipart(xlsx.rawPayload, 'menu.xlsx'),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    const fromXlsx = MenuResponseSchema.parse(upload.json());
    expect(fromXlsx.summary).toEqual(fromCsv.summary);
    expect(fromXlsx.summary.matched).toBe(fromXlsx.summary.tests);
    // The cholesterol line gives its own TE.
    expect(fromXlsx.tests.find((t) => t.input.name === 'Cholesterol (total)')?.lab).toMatchObject({
      te: 6,
      te_source: 'given',
    });
  });

  it('format=xlsx answers the sheet: one row per test, dated, naming its sources', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menu?format=xlsx&level=optimal',
      payload: { tests: [{ name: 'Sodium', cva: 0.5, bias: 0.2 }, { name: 'Nothing like it' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/bvdb_test_menu_\d{4}-\d{2}-\d{2}\.xlsx/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.rowCount).toBe(3);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain('Optimal TEa %');
    // The sheet numbers its lines as the answer does (issue 42.2).
    expect(header[0]).toBe('Line');
    expect(sheet.getRow(2).getCell(1).value).toBe(1);
    expect(sheet.getRow(3).getCell(1).value).toBe(2);
    expect(sheet.getRow(2).getCell(2).value).toBe('Sodium');
    expect(sheet.getRow(3).getCell(header.indexOf('Match') + 1).text).toMatch(/^unmatched/);
    // No literal apostrophe: a range is plain text with typographic minus signs (issue 42.9).
    const down = sheet.getRow(2).getCell(header.indexOf('RCV down range') + 1).text;
    expect(down).toMatch(/^−\d+\.\d{2} to −\d+\.\d{2} \((95 % CI|range)\)$/);
    sheet.eachRow((row) => row.eachCell((cell) => expect(cell.text.startsWith("'")).toBe(false)));
    const notes = wb.getWorksheet('Read me')!;
    const text = JSON.stringify(notes.getSheetValues());
    expect(text).toContain('Made on');
    expect(text).toContain('Fokkema');
  });

  it('refuses what it cannot read with a message', async () => {
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menu',
      payload: { tests: [{ name: 'x', cva: 'two' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/tests\.1\.cva/);
    const many = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menu',
      payload: { tests: Array.from({ length: 1001 }, () => ({ name: 'Sodium' })) },
    });
    expect(many.statusCode).toBe(422);
    const noName = await postCsv('foo,cva\nSodium,1\n');
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toMatch(/No name or code column/);
    const notNumber = await postCsv('name,cva\nSodium,abc\n');
    expect(notNumber.statusCode).toBe(400);
    expect(notNumber.json().message).toMatch(/Row 2, column cva/);
  });
});
