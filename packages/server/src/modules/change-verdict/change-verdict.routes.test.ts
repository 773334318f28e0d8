import {
  ApplicationsSchema,
  ChangeVerdictSchema,
  CVA_MESSAGE,
  NAME_THE_TEST_MESSAGE,
  UNIT2_NEEDS_UNIT_MESSAGE,
  V3_INTERPRETATION_SYSTEM,
  type ApplicationsRow,
} from '@bvdb/contract';
import { rcvAsymmetric, workbenchZ } from '@bvdb/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes } from '../../db/schema.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

let ctx: TestContext;
let row: ApplicationsRow;
// A code the demo's seeded codes (issue 45.2) do not hold, so it names this measurand alone.
const LOINC = '14749-6';

beforeAll(async () => {
  ctx = await createTestApp();
  const table = ApplicationsSchema.parse(
    (await ctx.app.inject({ url: '/api/v1/applications?cva=2.5&probability=0.95' })).json(),
  );
  // A measurand with a CVI and its limits, in its headline matrix.
  row = table.data.find((r) => r.headline && r.cvi?.lower !== null && r.cvi?.upper !== null)!;
  // A code on the measurand, written before the catalogue is first read (it is read on first ask).
  await ctx.database.db.update(analytes).set({ loinc: LOINC }).where(eq(analytes.id, row.measurand_id));
});
afterAll(async () => ctx.close());

const verdict = async (query: string) => {
  const res = await ctx.app.inject({ url: `/api/v1/rcv?${query}` });
  return { status: res.statusCode, body: res.json() };
};

describe('GET /api/v1/rcv (issue 45.4)', () => {
  it('gives the RCV of the summary table for the same inputs, and calls a rise over it U', async () => {
    const { status, body } = await verdict(`measurand=${row.measurand_id}&x1=100&x2=200&cva=2.5`);
    expect(status, JSON.stringify(body)).toBe(200);
    const v = ChangeVerdictSchema.parse(body);
    expect(v.measurand).toEqual({ id: row.measurand_id, display_name: row.display_name });
    expect(v.matrix).toEqual({ name: row.matrix, headline: true });
    expect(v.rcv.up).toBe(row.rcv.up.value);
    expect(v.rcv.down).toBe(row.rcv.down.value);
    expect(v.rcv.up_range).toEqual(row.rcv.up.range);
    expect(v.inputs).toMatchObject({ cva: 2.5, cva_source: 'given', z: workbenchZ(0.95), n1: 1, n2: 1 });
    expect(v.change_pct).toBe(100);
    expect(v.significant).toBe(true);
    expect(v.interpretation).toEqual({
      v2_0078: 'U',
      v3: { system: V3_INTERPRETATION_SYSTEM, code: 'U', display: 'Significant change up' },
      text: expect.stringMatching(/^Significant change up: \+100\.0 %/),
    });
    expect(v.estimate.cvi.median).toBe(row.cvi!.median);
    expect(v.estimate.permalink).toBe(
      `/analytes/${row.measurand_id}?${new URLSearchParams({ matrix: row.matrix, type: 'CVI' }).toString()}`,
    );
    expect(v.estimate.id).toEqual(expect.any(Number));
    expect(v.estimate.version).toEqual(expect.any(Number));
  });

  it('calls a fall under the RCV D, and a change within it nothing (never N)', async () => {
    const down = ChangeVerdictSchema.parse(
      (await verdict(`measurand=${row.measurand_id}&x1=200&x2=100&cva=2.5`)).body,
    );
    expect(down.interpretation.v2_0078).toBe('D');
    expect(down.interpretation.v3?.code).toBe('D');
    const within = ChangeVerdictSchema.parse(
      (await verdict(`measurand=${row.measurand_id}&x1=100&x2=100.1&cva=2.5`)).body,
    );
    expect(within.significant).toBe(false);
    expect(within.interpretation.v2_0078).toBeNull();
    expect(within.interpretation.v3).toBeNull();
    expect(within.interpretation.text).toMatch(/^No significant change/);
  });

  it('finds the test by its code (system|code or the code alone) and by its name, to the same answer', async () => {
    const byId = (await verdict(`measurand=${row.measurand_id}&x1=5&x2=6&cva=3`)).body;
    const byCode = await verdict(`code=${encodeURIComponent(`http://loinc.org|${LOINC}`)}&x1=5&x2=6&cva=3`);
    expect(byCode.status, JSON.stringify(byCode.body)).toBe(200);
    expect(byCode.body).toEqual(byId);
    expect((await verdict(`code=${LOINC}&x1=5&x2=6&cva=3`)).body).toEqual(byId);
    const byName = await verdict(`measurand=${encodeURIComponent(row.display_name)}&x1=5&x2=6&cva=3`);
    expect(byName.body).toEqual(byId);
  });

  it('uses the two results n1 = n2 = 1 RCV, and a wider one-direction z only when asked', async () => {
    const one = ChangeVerdictSchema.parse(
      (await verdict(`measurand=${row.measurand_id}&x1=5&x2=6&cva=3&direction=one`)).body,
    );
    const two = rcvAsymmetric(row.cvi!.median, 3, one.inputs.z);
    expect([one.rcv.up, one.rcv.down]).toEqual([two.up, two.down]);
    expect(one.inputs.z).toBeCloseTo(1.6449, 4);
    const means = ChangeVerdictSchema.parse(
      (await verdict(`measurand=${row.measurand_id}&x1=5&x2=6&cva=3&n1=3&n2=3`)).body,
    );
    expect(means.rcv.up).toBeLessThan(one.rcv.up * 2);
    expect(means.inputs).toMatchObject({ n1: 3, n2: 3 });
  });

  it('uses half the CVI for cva=desirable and says so', async () => {
    const v = ChangeVerdictSchema.parse(
      (await verdict(`measurand=${row.measurand_id}&x1=5&x2=6&cva=desirable`)).body,
    );
    expect(v.inputs.cva_source).toBe('desirable');
    expect(v.inputs.cva).toBeCloseTo(row.cvi!.median / 2, 10);
  });

  it('computes nothing from a missing input: 422 without a CVA, 400 for a CVA of 0 or a missing result', async () => {
    const noCva = await verdict(`measurand=${row.measurand_id}&x1=5&x2=6`);
    expect(noCva.status).toBe(422);
    expect(noCva.body.message).toBe(CVA_MESSAGE);
    expect((await verdict(`measurand=${row.measurand_id}&x1=5&x2=6&cva=0`)).status).toBe(400);
    const noX2 = await verdict(`measurand=${row.measurand_id}&x1=5&cva=2`);
    expect(noX2.status).toBe(400);
    expect(JSON.stringify(noX2.body)).toMatch(/x2/);
    expect((await verdict(`measurand=${row.measurand_id}&x1=0&x2=5&cva=2`)).status).toBe(400);
  });

  it('answers 404 for an unknown code or measurand, 400 without a test or with two, 422 for a matrix without estimate', async () => {
    const unknown = await verdict(`code=${encodeURIComponent('http://loinc.org|99999-9')}&x1=5&x2=6&cva=2`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/No measurand has the code http:\/\/loinc\.org\|99999-9/);
    expect((await verdict('measurand=No%20such%20test&x1=5&x2=6&cva=2')).status).toBe(404);
    const none = await verdict('x1=5&x2=6&cva=2');
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain(NAME_THE_TEST_MESSAGE);
    expect((await verdict(`code=${LOINC}&measurand=${row.measurand_id}&x1=5&x2=6&cva=2`)).status).toBe(400);
    const matrix = await verdict(
      `measurand=${row.measurand_id}&matrix=Cerebrospinal%20fluid&x1=5&x2=6&cva=2`,
    );
    expect(matrix.status).toBe(422);
    expect(matrix.body.message).toMatch(/estimates in: /);
  });

  it("converts x2 to x1's unit where UCUM can, and shows the value as sent and as judged", async () => {
    const inOne = ChangeVerdictSchema.parse(
      (await verdict(`measurand=${row.measurand_id}&x1=100&x2=150&unit=mg%2FdL&cva=2.5`)).body,
    );
    expect(inOne.inputs).toMatchObject({ unit: 'mg/dL', unit2: null, converted: null });
    const { status, body } = await verdict(
      `measurand=${row.measurand_id}&x1=100&x2=1.5&unit=mg%2FdL&unit2=g%2FL&cva=2.5`,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    const v = ChangeVerdictSchema.parse(body);
    expect(v.inputs).toMatchObject({ x1: 100, x2: 1.5, unit: 'mg/dL', unit2: 'g/L' });
    expect(v.inputs.converted).toEqual({ x2: expect.any(Number), from: 'g/L', to: 'mg/dL', factor: 100 });
    expect(v.inputs.converted!.x2).toBeCloseTo(150, 10);
    expect(v.change_pct).toBeCloseTo(inOne.change_pct, 10);
    expect([v.rcv, v.significant, v.interpretation]).toEqual([
      inOne.rcv,
      inOne.significant,
      inOne.interpretation,
    ]);
    // The same unit twice is no conversion.
    const same = ChangeVerdictSchema.parse(
      (await verdict(`measurand=${row.measurand_id}&x1=100&x2=150&unit=mg%2FdL&unit2=mg%2FdL&cva=2.5`)).body,
    );
    expect(same.inputs.converted).toBeNull();
  });

  it('reads units as laboratories and bvdb write them: µmol/L is UCUM umol/L, ×10^9/L is 10*9/L', async () => {
    const ask = (units: string) => verdict(`measurand=${row.measurand_id}&x1=100&x2=0.15&cva=2&${units}`);
    const micro = await ask(`unit=${encodeURIComponent('µmol/L')}&unit2=${encodeURIComponent('mmol/L')}`);
    expect(micro.status, JSON.stringify(micro.body)).toBe(200);
    const m = ChangeVerdictSchema.parse(micro.body);
    expect(m.inputs.unit).toBe('µmol/L');
    expect(m.inputs.converted).toMatchObject({ from: 'mmol/L', to: 'µmol/L', factor: 1000 });
    expect(m.inputs.converted!.x2).toBeCloseTo(150, 10);
    const greek = await ask(`unit=${encodeURIComponent('μmol/L')}`);
    expect(greek.status, JSON.stringify(greek.body)).toBe(200);
    const counts = await ask(`unit=${encodeURIComponent('×10^9/L')}&unit2=${encodeURIComponent('10*3/uL')}`);
    expect(counts.status, JSON.stringify(counts.body)).toBe(200);
    expect(ChangeVerdictSchema.parse(counts.body).inputs.converted!.factor).toBeCloseTo(1, 12);
  });

  it('answers 422 naming the units where UCUM cannot convert, or a unit is not UCUM', async () => {
    const ask = (units: string) => verdict(`measurand=${row.measurand_id}&x1=5&x2=6&cva=2&${units}`);
    const molar = await ask('unit=mmol%2FL&unit2=mg%2FdL');
    expect(molar.status).toBe(422);
    expect(molar.body.message).toBe(
      'x2 in mg/dL cannot be compared with x1 in mmol/L: converting between mass and substance needs the molar mass, and bvdb holds none for a measurand; send both results in one unit',
    );
    // UCUM would multiply by 10; for HbA1c NGSP % and IFCC mmol/mol are different scales.
    const scales = await ask('unit=%25&unit2=mmol%2Fmol');
    expect(scales.status).toBe(422);
    expect(scales.body.message).toMatch(/both are dimensionless ratios.*HbA1c in % and in mmol\/mol/);
    const notUcum = await ask('unit=mmol%2Flitre');
    expect(notUcum.status).toBe(422);
    expect(notUcum.body.message).toMatch(/^unit "mmol\/litre" is not a UCUM unit/);
    const notUcum2 = await ask('unit=mmol%2FL&unit2=furlongs');
    expect(notUcum2.status).toBe(422);
    expect(notUcum2.body.message).toMatch(/^unit2 "furlongs" is not a UCUM unit/);
    const annotated = await ask('unit=mL%2Fmin%2F%7B1.73_m2%7D&unit2=mL%2Fmin');
    expect(annotated.status).toBe(422);
    expect(annotated.body.message).toMatch(/annotations differ/);
    const alone = await ask('unit2=mg%2FdL');
    expect(alone.status).toBe(400);
    expect(JSON.stringify(alone.body)).toContain(UNIT2_NEEDS_UNIT_MESSAGE);
  });
});
