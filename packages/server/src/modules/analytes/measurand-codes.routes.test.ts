import { MeasurandCodesSchema, MenuResponseSchema, v1ListMeasurands } from '@bvdb/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes, auditLog, matrices } from '../../db/schema.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
});
afterAll(async () => ctx.close());

const LOINC = 'http://loinc.org';
const NPU = 'http://npu-terminology.org';
const idOf = async (displayName: string) =>
  (await ctx.database.db.select().from(analytes).where(eq(analytes.displayName, displayName)))[0]!.id;
const matrixId = async (name: string) =>
  (await ctx.database.db.select().from(matrices).where(eq(matrices.matrixExpansion, name)))[0]!.id;
const get = async (id: number) =>
  MeasurandCodesSchema.parse((await ctx.app.inject({ url: `/api/v1/measurands/${id}/codes` })).json());
const put = (id: number, payload: object, headers: Record<string, string> = s.headers) =>
  ctx.app.inject({ method: 'PUT', url: `/api/v1/measurands/${id}/codes`, payload, headers });
const v1List = (query: string) => ctx.app.inject({ url: `/api/v1/measurands?${query}` });
const ListSchema = v1ListMeasurands.responses[200];

describe('the codes of a measurand (issue 45.1 and 45.3, decision 091)', () => {
  it('are replaced by a curator with the version seen, each for a matrix and a scale, and read by anyone', async () => {
    const id = await idOf('Glucose');
    const plasma = await matrixId('Plasma');
    const before = await get(id);
    const codes = [
      {
        system: 'LOINC',
        code: '2345-7',
        display: 'Glucose [Mass/volume] in Serum or Plasma',
        matrix_id: plasma,
        ucum_unit: 'mg/dL',
        source: 'loinc.org/2345-7',
      },
      { system: NPU, code: 'NPU02192', matrix_id: plasma, ucum_unit: 'mmol/L' },
    ];
    expect((await put(id, { codes, version: before.version }, {})).statusCode).toBe(401);
    expect((await put(id, { codes, version: before.version }, { cookie: s.cookie })).statusCode).toBe(403);
    const res = await put(id, { codes, version: before.version });
    expect(res.statusCode, res.body).toBe(200);
    const after = MeasurandCodesSchema.parse(res.json());
    expect(after.version).toBe(before.version + 1);
    expect(after.codes).toEqual([
      {
        system: LOINC,
        code: '2345-7',
        display: codes[0]!.display,
        matrix_id: plasma,
        matrix: 'Plasma',
        ucum_unit: 'mg/dL',
        source: 'loinc.org/2345-7',
      },
      {
        system: NPU,
        code: 'NPU02192',
        display: null,
        matrix_id: plasma,
        matrix: 'Plasma',
        ucum_unit: 'mmol/L',
        source: null,
      },
    ]);
    expect(await get(id)).toEqual(after);
    const audit = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'measurand'));
    expect(audit.at(-1)).toMatchObject({ entityId: id, action: 'update' });
    // A stale version is refused with what is there now.
    const stale = await put(id, { codes: [], version: before.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ current: { codes: unknown[] } }>().current.codes).toHaveLength(2);
  });

  it('refuses a code not of its system’s form, an unknown system or matrix, a code twice, another measurand’s code', async () => {
    const id = await idOf('Sodium');
    const { version } = await get(id);
    const bad = async (codes: object[]) => {
      const res = await put(id, { codes, version });
      return { status: res.statusCode, message: res.json<{ message: string }>().message };
    };
    expect(await bad([{ system: 'LOINC', code: '2951-3' }])).toEqual({
      status: 400,
      message: '"2951-3" is not a LOINC code: its check digit would be 2',
    });
    expect((await bad([{ system: 'ICD-10', code: 'E87.1' }])).message).toBe(
      '"ICD-10" is not a code system bvdb knows',
    );
    expect((await bad([{ system: 'NPU', code: '03429' }])).message).toMatch(/not an NPU code/);
    expect((await bad([{ system: 'LOINC', code: '2951-2', matrix_id: 99999 }])).message).toBe(
      'Matrix 99999 does not exist',
    );
    expect(
      (
        await bad([
          { system: 'LOINC', code: '2951-2' },
          { system: LOINC, code: '2951-2' },
        ])
      ).status,
    ).toBe(400);
    const taken = await bad([{ system: 'LOINC', code: '2345-7' }]);
    expect(taken.status).toBe(409);
    expect(taken.message).toMatch(/2345-7 is already a code of another measurand: Glucose/);
    expect((await get(id)).version).toBe(version);
  });

  it('resolves a code to its measurand, matrix and scale on /api/v1/measurands; v1 answers carry codes', async () => {
    const glucose = await idOf('Glucose');
    for (const query of [
      `code=${encodeURIComponent('http://loinc.org|2345-7')}`,
      'code=LOINC|2345-7',
      'code=2345-7',
      'loinc=2345-7',
    ]) {
      const res = await v1List(query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      const body = ListSchema.parse(res.json());
      expect(body.data.map((m) => m.id)).toEqual([glucose]);
      expect(body.meta.code).toMatchObject({
        system: LOINC,
        code: '2345-7',
        measurand_id: glucose,
        matrix: 'Plasma',
        ucum_unit: 'mg/dL',
      });
      expect(body.data[0]!.codes.map((c) => c.code)).toEqual(['2345-7', 'NPU02192']);
    }
    const npu = ListSchema.parse((await v1List('npu=NPU02192')).json());
    expect(npu.meta.code).toMatchObject({ system: NPU, ucum_unit: 'mmol/L' });
    // A code no measurand has (the demo's seeded codes, issue 45.2, do not include it).
    const unknown = await v1List('loinc=2947-0');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ message: string }>().message).toBe(
      'No measurand has the code http://loinc.org|2947-0',
    );
    expect((await v1List('code=ICD|E87')).statusCode).toBe(400);
    expect((await v1List('code=2345-7&loinc=2345-7')).statusCode).toBe(400);
    // The plain list carries every measurand's codes too.
    const page = ListSchema.parse((await v1List('limit=500')).json());
    expect(page.data.find((m) => m.id === glucose)!.codes).toHaveLength(2);
    expect(page.meta.code).toBeUndefined();
  });

  it('resolves each scale variant to its own scale, never the other (HbA1c % and mmol/mol)', async () => {
    const id = await idOf('HbA1c');
    const blood = await matrixId('Whole blood');
    const { version } = await get(id);
    const scales = [
      { system: 'LOINC', code: '4548-4', matrix_id: blood, ucum_unit: '%' },
      { system: 'LOINC', code: '59261-8', matrix_id: blood, ucum_unit: 'mmol/mol' },
    ];
    const res = await put(id, { codes: scales, version });
    expect(res.statusCode, res.body).toBe(200);
    for (const [code, unit] of [
      ['4548-4', '%'],
      ['59261-8', 'mmol/mol'],
    ] as const) {
      for (const query of [`loinc=${code}`, `code=${encodeURIComponent(`http://loinc.org|${code}`)}`]) {
        const body = ListSchema.parse((await v1List(query)).json());
        expect(body.data.map((m) => m.id)).toEqual([id]);
        expect(body.meta.code).toMatchObject({ code, matrix: 'Whole blood', ucum_unit: unit });
      }
    }
  });

  it('lets search and autocomplete find a measurand by a code and by an alternative name', async () => {
    const names = async (q: string) =>
      (await ctx.app.inject({ url: `/autocomplete?query=${encodeURIComponent(q)}` }))
        .json<{ display_name: string }[]>()
        .map((m) => m.display_name);
    expect(await names('NPU02192')).toContain('Glucose');
    expect(await names('2345-7')).toContain('Glucose');
    // A name curators gave (decision 083), not in the record's own alternate names.
    expect(await names('Free T4')).toContain('Free thyroxine (FT4)');
  });

  it('lets the test menu match a line by a code of the table', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menu',
      payload: { tests: [{ name: 'Glu (lab 7)', code: 'NPU02192' }] },
    });
    const t = MenuResponseSchema.parse(res.json()).tests[0]!;
    expect(t.status).toBe('matched');
    expect(t.match!.display_name).toBe('Glucose');
  });
});
