import { MeasurandCodesSchema, v1ListMeasurands } from '@bvdb/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes, appState, measurandCodes } from '../../db/schema.js';
import { seedDatabase } from '../../seed/seed.js';
import { createSignedInTestApp } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

// The demo's sourced codes (issue 45.2): seeded with the demo, each with the source that states it.

let ctx: TestContext;
beforeAll(async () => {
  ({ ctx } = await createSignedInTestApp());
});
afterAll(async () => ctx.close());

const LOINC = 'http://loinc.org';
const ListSchema = v1ListMeasurands.responses[200];
const idOf = async (displayName: string) =>
  (await ctx.database.db.select().from(analytes).where(eq(analytes.displayName, displayName)))[0]!.id;
const codesOf = async (id: number) =>
  MeasurandCodesSchema.parse((await ctx.app.inject({ url: `/api/v1/measurands/${id}/codes` })).json());

const loincOf = (m: { codes: { system: string; code: string }[] }) =>
  m.codes.filter((c) => c.system === LOINC).map((c) => c.code);

describe('the demo database’s sourced codes', () => {
  it('finds a measurand by its seeded LOINC code, in the code’s matrix and scale', async () => {
    const sodium = await idOf('Sodium');
    const res = await ctx.app.inject({ url: '/api/v1/measurands?loinc=2951-2' });
    expect(res.statusCode, res.body).toBe(200);
    const body = ListSchema.parse(res.json());
    expect(body.data.map((m) => m.id)).toEqual([sodium]);
    expect(body.meta.code).toMatchObject({
      system: LOINC,
      code: '2951-2',
      measurand_id: sodium,
      matrix: 'Serum/plasma',
      ucum_unit: 'mmol/L',
    });
  });

  it('finds a demo measurand by its seeded NPU code, each scale its own code (decision 093)', async () => {
    const urate = await idOf('Urate (uric acid)');
    for (const [code, unit] of [
      ['NPU09356', 'umol/L'],
      ['NPU03688', 'mmol/L'],
    ] as const) {
      const res = await ctx.app.inject({ url: `/api/v1/measurands?npu=${code}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(ListSchema.parse(res.json()).meta.code).toMatchObject({
        system: 'http://npu-terminology.org',
        code,
        measurand_id: urate,
        matrix: 'Plasma',
        ucum_unit: unit,
      });
    }
  });

  it('lists the seeded code with its source on the measurand’s codes', async () => {
    const { codes } = await codesOf(await idOf('Creatinine'));
    expect(codes).toEqual([
      expect.objectContaining({
        system: LOINC,
        code: '2160-0',
        matrix: 'Serum/plasma',
        source: expect.stringContaining('http://ltd.aruplab.com/Tests/Pub/Print/0020025') as string,
      }),
    ]);
  });

  it('a demo database seeded before the codes existed gets them once, never moving a code another measurand has', async () => {
    const db = ctx.database.db;
    const [sodium, potassium] = [await idOf('Sodium'), await idOf('Potassium')];
    // As before this release: no codes, no marker; a curator gave potassium's code to sodium.
    await db.delete(measurandCodes);
    await db.delete(appState).where(eq(appState.key, 'demo_codes_seeded'));
    await db.insert(measurandCodes).values({ analyteId: sodium, system: LOINC, code: '2823-3' });

    await seedDatabase(db, { demo: true });
    expect(loincOf(await codesOf(sodium)).sort()).toEqual(['2823-3', '2951-2']);
    expect(loincOf(await codesOf(potassium))).toEqual([]);
    expect((await codesOf(await idOf('Glucose'))).codes.map((c) => c.code)).toEqual(['2345-7']);

    // Once: what a curator removes later stays removed.
    await db
      .delete(measurandCodes)
      .where(and(eq(measurandCodes.analyteId, sodium), eq(measurandCodes.code, '2951-2')));
    await seedDatabase(db, { demo: true });
    expect(loincOf(await codesOf(sodium))).toEqual(['2823-3']);
  });

  it('a demo database seeded before the NPU codes existed gets them on its next start, once (decision 093)', async () => {
    const db = ctx.database.db;
    const urate = await idOf('Urate (uric acid)');
    await db.delete(measurandCodes).where(eq(measurandCodes.system, 'http://npu-terminology.org'));
    await db.delete(appState).where(eq(appState.key, 'demo_npu_codes_seeded'));
    const loincBefore = loincOf(await codesOf(urate));

    await seedDatabase(db, { demo: true });
    const after = await codesOf(urate);
    expect(after.codes.filter((c) => c.system !== LOINC).map((c) => c.code)).toEqual([
      'NPU09356',
      'NPU03688',
    ]);
    expect(loincOf(after)).toEqual(loincBefore);

    await db.delete(measurandCodes).where(eq(measurandCodes.code, 'NPU03688'));
    await seedDatabase(db, { demo: true });
    expect((await codesOf(urate)).codes.map((c) => c.code)).not.toContain('NPU03688');
  });
});
