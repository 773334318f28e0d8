import { ApplicationsSchema, FacetAnswerSchema, type Applications } from '@bvdb/contract';
import { calculateAps, parseCsv } from '@bvdb/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyteIdByName } from '../../test/analytes.js';
import { makeAthletesOfCholesterol } from '../../test/athletes-population.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';

/** The specifications table for a population (issue 47.3, decision 098). */
let ctx: TestContext;
let cholId: number;
let altId: number;
/** The table without facets, read before any facet query. */
let before: string;

beforeAll(async () => {
  ctx = await createTestApp();
  cholId = await analyteIdByName(ctx.app, 'Cholesterol (total)');
  altId = await analyteIdByName(ctx.app, 'Alanine aminotransferase (ALT)');
  await makeAthletesOfCholesterol(ctx.database.db, cholId);
  before = (await ctx.app.inject({ url: '/api/v1/applications?matrices=all' })).body;
});
afterAll(async () => ctx.close());

const table = async (query: string): Promise<Applications> => {
  const res = await ctx.app.inject({ url: `/api/v1/applications${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return ApplicationsSchema.parse(res.json());
};

/** The measurand's population estimates as `/metas?facet.*` answers them. */
const facetMetas = async (id: number, query: string) => {
  const res = await ctx.app.inject({ url: `/api/v1/measurands/${id}/metas${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return FacetAnswerSchema.parse(res.json<{ facets: unknown }>().facets);
};

describe('GET /api/v1/applications?facet.…', () => {
  it('computes every row for the population, says so on each, and equals /metas?facet.* for the measurand', async () => {
    const t = await table('?facet.state=athletes');
    expect(t.population).toEqual({
      selection: { state: ['athletes'] },
      key: 'state=athletes',
      label: 'athletes',
      sentence: 'Population: athletes — recomputed per measurand from its matching studies',
    });
    expect(t.data.length).toBeGreaterThan(10);
    for (const r of t.data) expect(r.population?.key).toBe('state=athletes');

    const chol = t.data.find((r) => r.measurand_id === cholId)!;
    const facets = await facetMetas(cholId, '?facet.state=athletes');
    const cvi = facets.metas.find(
      (m) =>
        m.var_type === ':cvi' &&
        m.matrix_id === chol.matrix_id &&
        m.matrix_consolidation_id === chol.matrix_consolidation_id,
    )!;
    expect(cvi.number_used).toBeGreaterThanOrEqual(2);
    expect(chol.cvi).toEqual({
      id: null,
      median: cvi.median,
      lower: cvi.lower,
      upper: cvi.upper,
      limits: cvi.limits,
      number_used: cvi.number_used,
      updated_at: null,
    });
    // The values are computed from the population's CVI (athletes' is about 2.5 × the healthy one).
    expect(chol.aps.imprecision.value).toBeCloseTo(
      calculateAps(cvi.median!, chol.cvg?.median ?? 0).desirable.imprecision,
      9,
    );
    const studies = new Set(
      facets.metas.filter((m) => m.matrix === chol.matrix).flatMap((m) => m.datasets.map((d) => d.study_id)),
    ).size;
    expect(chol.population).toEqual({
      key: 'state=athletes',
      studies,
      note: null,
      sentence: `Population: athletes — recomputed from ${studies} studies`,
    });
    const global = ApplicationsSchema.parse(JSON.parse(before)).data.find(
      (r) => r.measurand_id === cholId && r.matrix === chol.matrix,
    )!;
    expect(chol.cvi!.median).not.toBe(global.cvi?.median);
  });

  it('says so on the row of a measurand the population has no estimate for, never the global one', async () => {
    const t = await table('?facet.state=athletes');
    const alt = t.data.find((r) => r.measurand_id === altId)!;
    const facets = await facetMetas(altId, '?facet.state=athletes');
    expect(facets.metas.filter((m) => m.matrix === alt.matrix)).toEqual([]);
    expect(alt.cvi).toBeNull();
    expect(alt.cvg).toBeNull();
    expect(alt.aps.imprecision.value).toBeNull();
    expect(alt.rcv.up.value).toBeNull();
    expect(alt.population).toEqual({
      key: 'state=athletes',
      studies: 0,
      note: 'No estimate for this population',
      sentence: 'Population: athletes — no estimate for this population (no eligible study matches)',
    });
  });

  it('names several facets in words and keys them normalised (one kept answer whatever the order)', async () => {
    const a = await ctx.app.inject({
      url: '/api/v1/applications?facet.state=Athletes,healthy&facet.sex=mixed',
    });
    const b = await ctx.app.inject({
      url: '/api/v1/applications?facet.sex=MIXED&facet.state=healthy&facet.state=athletes',
    });
    expect(a.statusCode, a.body).toBe(200);
    expect(b.headers.etag).toBe(a.headers.etag);
    const t = ApplicationsSchema.parse(a.json());
    expect(t.population?.key).toBe('sex=mixed&state=athletes,healthy');
    expect(t.population?.label).toBe('mixed, athletes or healthy');
  });

  it('is 400 for an unknown facet value, naming the allowed ones', async () => {
    for (const url of [
      '/api/v1/applications?facet.state=astronauts',
      '/api/v1/applications/bv_applications.csv?facet.state=astronauts',
    ]) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      const message = res.json<{ message: string }>().message;
      expect(message).toContain('facet.state: "astronauts" is not a value of this facet');
      expect(message).toMatch(/allowed: .*athletes/);
      expect(message).toContain('healthy');
    }
    const sex = await ctx.app.inject({ url: '/api/v1/applications?facet.sex=other' });
    expect(sex.statusCode).toBe(400);
    expect(sex.json<{ message: string }>().message).toContain('allowed: males, females, mixed');
  });

  it('puts the population on every row of the CSV; without facets the file has no such column', async () => {
    const csv = await ctx.app.inject({
      url: '/api/v1/applications/bv_applications.csv?facet.state=athletes',
    });
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = parseCsv(csv.body.replace(/^\uFEFF/, '')).filter((r) => r.length > 1);
    const headerAt = rows.findIndex((r) => r[0] === 'Measurand');
    const header = rows[headerAt]!;
    expect(header.at(-1)).toBe('Population');
    const body = rows.slice(headerAt + 1);
    expect(body.length).toBeGreaterThan(10);
    for (const r of body) expect(r.at(-1)).toMatch(/^Population: athletes — /);
    const plain = await ctx.app.inject({ url: '/api/v1/applications/bv_applications.csv' });
    const plainRows = parseCsv(plain.body.replace(/^\uFEFF/, '')).filter((r) => r.length > 1);
    expect(plainRows.find((r) => r[0] === 'Measurand')!.at(-1)).toBe('Measurand id');
    expect(plain.body).not.toContain('Population');
  });

  it('without facets answers as before, byte for byte, after any facet query', async () => {
    await table('?matrices=all&facet.state=athletes');
    const after = await ctx.app.inject({ url: '/api/v1/applications?matrices=all' });
    expect(after.body).toBe(before);
    expect(after.body).not.toContain('population');
  });
});
