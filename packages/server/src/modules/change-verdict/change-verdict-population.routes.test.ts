import {
  ApplicationsSchema,
  ChangeVerdictBatchSchema,
  ChangeVerdictSchema,
  FacetAnswerSchema,
} from '@bvdb/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes } from '../../db/schema.js';
import { analyteIdByName } from '../../test/analytes.js';
import { makeAthletesOfCholesterol } from '../../test/athletes-population.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/** The change verdict for a population (issue 47.3, decision 098). */
let ctx: TestContext;
let cholId: number;
let altId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  cholId = await analyteIdByName(ctx.app, 'Cholesterol (total)');
  altId = await analyteIdByName(ctx.app, 'Alanine aminotransferase (ALT)');
  await makeAthletesOfCholesterol(ctx.database.db, cholId);
  // A code no seeded measurand holds, for the FHIR operation (read before the catalogue is first read).
  await ctx.database.db.update(analytes).set({ loinc: LOINC }).where(eq(analytes.id, cholId));
});

const LOINC = '14749-6';
const observation = (id: string, value: number, when: string) => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: LOINC }] },
  effectiveDateTime: when,
  valueQuantity: { value, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
});
afterAll(async () => ctx.close());

const verdict = async (query: string) => {
  const res = await ctx.app.inject({ url: `/api/v1/rcv?${query}` });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
};

describe('GET /api/v1/rcv?facet.…', () => {
  it("judges with the population's CVI (the /metas?facet.* estimate), says so, and agrees with the table", async () => {
    const { status, body } = await verdict(`measurand=${cholId}&x1=5&x2=6&cva=2&facet.state=athletes`);
    expect(status, JSON.stringify(body)).toBe(200);
    const v = ChangeVerdictSchema.parse(body);
    const facets = FacetAnswerSchema.parse(
      (await ctx.app.inject({ url: `/api/v1/measurands/${cholId}/metas?facet.state=athletes` })).json<{
        facets: unknown;
      }>().facets,
    );
    const cvi = facets.metas.find((m) => m.var_type === ':cvi' && m.matrix === v.matrix.name)!;
    expect(v.estimate.cvi).toEqual({
      median: cvi.median,
      lower: cvi.lower,
      upper: cvi.upper,
      limits: cvi.limits,
      number_used: cvi.number_used,
    });
    expect([v.estimate.id, v.estimate.version]).toEqual([null, null]);
    const studies = new Set(cvi.datasets.map((d) => d.study_id)).size;
    expect(v.population).toEqual({
      selection: { state: ['athletes'] },
      key: 'state=athletes',
      label: 'athletes',
      studies,
      sentence: `Population: athletes — recomputed from ${studies} studies`,
    });
    const table = ApplicationsSchema.parse(
      (await ctx.app.inject({ url: '/api/v1/applications?cva=2&facet.state=athletes&matrices=all' })).json(),
    );
    const row = table.data.find((r) => r.measurand_id === cholId && r.matrix === v.matrix.name)!;
    expect(v.rcv.up).toBe(row.rcv.up.value);
    expect(v.rcv.down).toBe(row.rcv.down.value);
    // Not the global estimate's RCV.
    const global = ChangeVerdictSchema.parse((await verdict(`measurand=${cholId}&x1=5&x2=6&cva=2`)).body);
    expect(global.estimate.cvi.median).not.toBe(v.estimate.cvi.median);
    expect(global.rcv.up).not.toBe(v.rcv.up);
  });

  it('is 422 saying so when the population has no estimate for the test, never the global one', async () => {
    const { status, body } = await verdict(`measurand=${altId}&x1=30&x2=40&cva=2&facet.state=athletes`);
    expect(status).toBe(422);
    expect(body.message).toMatch(
      /no CVI estimate in .* for this population: Population: athletes — no estimate/,
    );
  });

  it('is 400 for an unknown facet value, naming the allowed ones', async () => {
    const { status, body } = await verdict(`measurand=${cholId}&x1=5&x2=6&cva=2&facet.age=teenagers`);
    expect(status).toBe(400);
    expect(body.message).toBe(
      'facet.age: "teenagers" is not a value of this facet; allowed: children, adults, elderly, mixed',
    );
  });

  it('without facets answers as before: no population key, the stored estimate', async () => {
    const { status, body } = await verdict(`measurand=${cholId}&x1=5&x2=6&cva=2`);
    expect(status).toBe(200);
    expect(Object.keys(body)).not.toContain('population');
    expect(ChangeVerdictSchema.parse(body).estimate.id).toEqual(expect.any(Number));
  });

  it('judges a batch (POST) for the population: each pair says so, the pair the population has no estimate for fails saying so', async () => {
    const pairs = {
      pairs: [
        { measurand: String(cholId), x1: 5, x2: 6, cva: 2 },
        { measurand: String(altId), x1: 30, x2: 40, cva: 2 },
      ],
    };
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/rcv?facet.state=athletes',
      payload: pairs,
    });
    expect(res.statusCode, res.body).toBe(200);
    const batch = ChangeVerdictBatchSchema.parse(res.json());
    const single = ChangeVerdictSchema.parse(
      (await verdict(`measurand=${cholId}&x1=5&x2=6&cva=2&facet.state=athletes`)).body,
    );
    expect(batch.population?.key).toBe('state=athletes');
    const [chol, alt] = batch.results;
    expect(chol).toMatchObject({
      status: 200,
      rcv_up: single.rcv.up,
      rcv_down: single.rcv.down,
      estimate_id: null,
      version: null,
      population: single.population!.sentence,
    });
    expect(alt!.status).toBe(422);
    expect(alt!.error).toMatch(/for this population/);
    expect(alt!.population).toBeNull();
    const csv = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/rcv?facet.state=athletes',
      headers: { accept: 'text/csv' },
      payload: pairs,
    });
    expect(csv.body).toContain(single.population!.sentence);
    const plain = await ctx.app.inject({ method: 'POST', url: '/api/v1/rcv', payload: pairs });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).not.toContain('population');
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/rcv?facet.sex=unknown',
      payload: pairs,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain('allowed: males, females, mixed');
  });

  it('the FHIR operation takes the population too, says so in a note, and judges as GET does', async () => {
    const body = JSON.stringify({
      resourceType: 'Parameters',
      parameter: [
        { name: 'observation', resource: observation('a', 5, '2026-01-01T08:00:00Z') },
        { name: 'observation', resource: observation('b', 6, '2026-02-01T08:00:00Z') },
        { name: 'analyticalCV', valueDecimal: 2 },
      ],
    });
    const post = (query: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/fhir/Observation/$rcv${query}`,
        headers: { 'content-type': 'application/fhir+json' },
        payload: body,
      });
    const res = await post('?facet.state=athletes');
    expect(res.statusCode, res.body).toBe(200);
    const obs = res.json<{ note: { text: string }[]; component: { valueQuantity: { value: number } }[] }>();
    const single = ChangeVerdictSchema.parse(
      (await verdict(`measurand=${cholId}&x1=5&x2=6&cva=2&facet.state=athletes`)).body,
    );
    expect(obs.note.map((n) => n.text)).toContain(single.population!.sentence);
    expect(obs.component[0]!.valueQuantity.value).toBe(single.rcv.up);
    const plain = await post('');
    expect(plain.body).not.toContain('Population:');
    const bad = await post('?facet.state=astronauts');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('allowed:');
  });
});
