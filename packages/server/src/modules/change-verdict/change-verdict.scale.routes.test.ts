import {
  ApplicationsSchema,
  ChangeVerdictBatchSchema,
  ChangeVerdictSchema,
  FHIR_JSON,
  OperationOutcomeSchema,
  type ApplicationsRow,
} from '@bvdb/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurandCodes } from '../../db/schema.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/**
 * A result's unit against the scale its code names (issue 45): a code stored with a UCUM unit takes
 * results on that scale (or a unit UCUM converts to it), never one of another kind — the same rule
 * on GET, the batch and FHIR.
 */
let ctx: TestContext;
let row: ApplicationsRow;
// Codes the demo's seeded codes do not hold: one on a mass-concentration scale, one with no scale.
const MASS = '90001-3';
const NO_SCALE = '90002-1';

beforeAll(async () => {
  ctx = await createTestApp();
  const table = ApplicationsSchema.parse((await ctx.app.inject({ url: '/api/v1/applications' })).json());
  row = table.data.find((r) => r.headline && r.cvi !== null)!;
  // Written before the menu's catalogue is first read (it is read on the first verdict).
  await ctx.database.db.insert(measurandCodes).values([
    { analyteId: row.measurand_id, system: 'http://loinc.org', code: MASS, ucumUnit: 'mg/dL' },
    { analyteId: row.measurand_id, system: 'http://loinc.org', code: NO_SCALE, ucumUnit: null },
  ]);
});
afterAll(async () => ctx.close());

const get = (query: string) => ctx.app.inject({ url: `/api/v1/rcv?${query}` });

describe('a result’s unit on its code’s scale (issue 45)', () => {
  it('GET: a unit of another kind than the code’s scale is 422 naming both; one UCUM converts to it is judged', async () => {
    const off = await get(`code=http://loinc.org|${MASS}&x1=5&x2=6&unit=mmol/L&cva=2`);
    expect(off.statusCode, off.body).toBe(422);
    const message = off.json<{ message: string }>().message;
    expect(message).toContain(`The code ${MASS} is on the scale mg/dL`);
    expect(message).toContain('the unit given, mmol/L, is not commensurable with it');
    expect(message).toMatch(/molar mass/);

    for (const unit of ['mg/dL', 'g/L', 'mg/L']) {
      const on = await get(`code=${MASS}&x1=5&x2=6&unit=${encodeURIComponent(unit)}&cva=2`);
      expect(on.statusCode, `${unit}: ${on.body}`).toBe(200);
      expect(ChangeVerdictSchema.parse(on.json()).measurand.id).toBe(row.measurand_id);
    }
    // x2 in another unit: x1's unit on the scale, x2 converted to it as before.
    const converted = await get(`code=${MASS}&x1=100&x2=1.5&unit=mg/dL&unit2=g/L&cva=2`);
    expect(converted.statusCode, converted.body).toBe(200);
    expect(ChangeVerdictSchema.parse(converted.json()).change_pct).toBe(50);
  });

  it('GET: a test found by a code with no scale, or by its id or name, is not held to any scale', async () => {
    for (const test of [`code=${NO_SCALE}`, `measurand=${row.measurand_id}`]) {
      const res = await get(`${test}&x1=5&x2=6&unit=mmol/L&cva=2`);
      expect(res.statusCode, `${test}: ${res.body}`).toBe(200);
    }
  });

  it('batch: a pair off its code’s scale is its own 422 line, the rest are judged', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/rcv',
      headers: { 'content-type': 'text/csv' },
      payload: [
        'code,x1,x2,unit,cva',
        `${MASS},5,6,mmol/L,2`,
        `${MASS},5,6,g/L,2`,
        `${NO_SCALE},5,6,mmol/L,2`,
      ].join('\r\n'),
    });
    expect(res.statusCode, res.body).toBe(200);
    const batch = ChangeVerdictBatchSchema.parse(res.json());
    expect(batch.results.map((r) => r.status)).toEqual([422, 200, 200]);
    expect(batch.results[0]!.error).toContain(`The code ${MASS} is on the scale mg/dL`);
    expect(batch.results[0]!.error).toContain('the unit given, mmol/L');
  });

  it('FHIR: a valueQuantity off the code’s scale is a 422 OperationOutcome naming both', async () => {
    const observation = (id: string, value: number, unit: string) => ({
      resourceType: 'Observation',
      id,
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: MASS }] },
      effectiveDateTime: '2026-01-01T08:00:00Z',
      valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
    });
    const ask = (unit: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/fhir/Observation/$rcv',
        headers: { 'content-type': FHIR_JSON },
        payload: JSON.stringify({
          resourceType: 'Parameters',
          parameter: [
            { name: 'observation', resource: observation('a', 5, unit) },
            { name: 'observation', resource: observation('b', 6, unit) },
          ],
        }),
      });
    const off = await ask('mmol/L');
    expect(off.statusCode, off.body).toBe(422);
    const outcome = OperationOutcomeSchema.parse(off.json());
    const text = JSON.stringify(outcome.issue);
    expect(text).toContain('is on the scale mg/dL');
    expect(text).toContain('the unit given, mmol/L');
    expect((await ask('g/L')).statusCode).toBe(200);
  });
});
