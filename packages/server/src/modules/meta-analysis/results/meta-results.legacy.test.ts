import { headlineMatrixOf } from '@bvdb/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp } from '../../../test/test-app.js';

/**
 * The live shapes as the live system's consumers read them (issue 14), written here independently
 * of the contract: a change to the contract that breaks a consumer fails this file.
 */
const liveMatrix = z.object({ matrix_expansion: z.string().min(1) });
const liveMetaCalculations = z.object({
  code: z.literal('success'),
  data: z.array(
    z.object({
      analyte: z.object({
        id: z.number().int(),
        display_name: z.string(),
        full_name: z.string(),
        alternate_names: z.array(z.string()),
      }),
      metas: z
        .array(
          z.object({
            id: z.number().int(),
            var_type: z.enum([':cvi', ':cvg']),
            // Consumers float() these: numbers, never null.
            median: z.number(),
            lower: z.number(),
            upper: z.number(),
            number_used: z.number().int().positive(),
            matrix: liveMatrix,
          }),
        )
        .min(1)
        .max(2),
    }),
  ),
});
const liveEstimate = z.object({
  median: z.number(),
  lower: z.number(),
  upper: z.number(),
  number_used: z.number().int(),
  updated_at: z.iso.datetime(),
});
const liveMeasurands = z.object({
  data: z.array(
    z.object({
      analyte: z.object({ id: z.number().int(), display_name: z.string() }),
      metas: z.array(
        z.object({ matrix: liveMatrix, cvi: liveEstimate.nullable(), cvg: liveEstimate.nullable() }),
      ),
    }),
  ),
});
const liveMetaByAnalyte = z.object({
  data: z.array(
    z.object({
      analyte: z.object({ id: z.number().int(), display_name: z.string() }),
      metas: z.array(
        z.object({
          id: z.number().int(),
          var_type: z.enum([':cvi', ':cvg']),
          median: z.number().nullable(),
          lower: z.number().nullable(),
          upper: z.number().nullable(),
          number_used: z.number().int(),
          matrix: liveMatrix,
          matrix_id: z.number().int().nullable(),
          matrix_consolidation_id: z.number().int().nullable(),
          updated_at: z.string(),
        }),
      ),
    }),
  ),
});

const ctx = useTestApp();
const get = async (url: string) => ctx.app.inject({ url });

async function allResultsOf(analyteId: number) {
  return liveMetaByAnalyte.parse((await get(`/api/meta_calculations/meta_by_analyte/${analyteId}`)).json())
    .data[0]!.metas;
}

describe('GET /api/meta_calculations (legacy: one entry per measurand, its headline matrix)', () => {
  it('has the live shape, one entry per measurand, at most one result per type', async () => {
    const body = liveMetaCalculations.parse((await get('/api/meta_calculations')).json());
    expect(body.data.length).toBeGreaterThan(10);
    const ids = body.data.map((e) => e.analyte.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of body.data) {
      expect(new Set(e.metas.map((m) => m.var_type)).size).toBe(e.metas.length);
      expect(new Set(e.metas.map((m) => m.matrix.matrix_expansion)).size).toBe(1);
      expect(e.analyte.display_name).toBe(e.analyte.display_name.trim());
    }
  });

  it('picks the matrix of the headline rule (decision 007) and sends the stored values of its results', async () => {
    const body = liveMetaCalculations.parse((await get('/api/meta_calculations')).json());
    for (const entry of body.data.slice(0, 25)) {
      const all = await allResultsOf(entry.analyte.id);
      const pick = headlineMatrixOf(
        all.map((m) => ({
          matrixKey: m.matrix_id ?? m.matrix_consolidation_id!,
          consolidated: m.matrix_id === null,
          varType: m.var_type,
          median: m.median,
          numberUsed: m.number_used,
        })),
      )!;
      const ofHeadline = all.filter((m) =>
        pick.consolidated
          ? m.matrix_id === null && m.matrix_consolidation_id === pick.matrixKey
          : m.matrix_id === pick.matrixKey,
      );
      expect(entry.metas.map((m) => m.id).sort()).toEqual(ofHeadline.map((m) => m.id).sort());
      for (const m of entry.metas) {
        const stored = all.find((s) => s.id === m.id)!;
        expect([m.median, m.lower, m.upper, m.number_used]).toEqual([
          stored.median,
          stored.lower,
          stored.upper,
          stored.number_used,
        ]);
        expect(m.matrix.matrix_expansion).toBe(stored.matrix.matrix_expansion);
      }
    }
  });

  it('a measurand with both types in some matrix shows a matrix with both (not the first one found)', async () => {
    const body = liveMetaCalculations.parse((await get('/api/meta_calculations')).json());
    for (const entry of body.data) {
      const all = await allResultsOf(entry.analyte.id);
      const key = (m: { matrix_id: number | null; matrix_consolidation_id: number | null }) =>
        `${m.matrix_id}/${m.matrix_consolidation_id}`;
      const cvgKeys = new Set(all.filter((m) => m.var_type === ':cvg' && m.median !== null).map(key));
      const withBoth = all.filter((m) => m.var_type === ':cvi' && m.median !== null && cvgKeys.has(key(m)));
      if (withBoth.length > 0) expect(entry.metas).toHaveLength(2);
    }
  });

  it('pages by measurand with limit and offset; past the end is an empty page', async () => {
    const whole = liveMetaCalculations.parse((await get('/api/meta_calculations')).json());
    const pages = [];
    for (let offset = 0; offset < whole.data.length; offset += 7) {
      pages.push(
        ...liveMetaCalculations.parse((await get(`/api/meta_calculations?limit=7&offset=${offset}`)).json())
          .data,
      );
    }
    expect(pages).toEqual(whole.data);
    const past = (await get('/api/meta_calculations?limit=7&offset=100000')).json<{ data: unknown[] }>();
    expect(past.data).toEqual([]);
  });

  it('sends the whole list, written in steps, as the same bytes the serialiser writes for one page of all', async () => {
    const whole = await get('/api/meta_calculations');
    const total = whole.json<{ total: number }>().total;
    expect(total).toBeGreaterThan(0);
    const onePage = await get(`/api/meta_calculations?limit=1000&offset=0`);
    expect(whole.body).toBe(onePage.body);
  });
});

describe('GET /api/meta_calculations/meta_by_analyte/{id} (legacy)', () => {
  it('sends matrix as an object {matrix_expansion}, never a string', async () => {
    const body = (await get('/api/meta_calculations')).json<{ data: { analyte: { id: number } }[] }>();
    const metas = await allResultsOf(body.data[0]!.analyte.id);
    expect(metas.length).toBeGreaterThan(0);
    for (const m of metas) expect(typeof m.matrix).toBe('object');
  });
});

describe('GET /api/measurands (legacy)', () => {
  it('has the live shape; the matrix and values are those of /api/meta_calculations; updated_at is the estimate’s', async () => {
    const measurands = liveMeasurands.parse((await get('/api/measurands')).json());
    const metaCalcs = liveMetaCalculations.parse((await get('/api/meta_calculations')).json());
    expect(measurands.data.map((m) => m.analyte.id)).toEqual(metaCalcs.data.map((e) => e.analyte.id));
    for (const m of measurands.data) {
      const entry = metaCalcs.data.find((e) => e.analyte.id === m.analyte.id)!;
      expect(m.analyte.display_name).toBe(entry.analyte.display_name);
      expect(m.metas).toHaveLength(1);
      const [headline] = m.metas;
      expect(headline!.matrix.matrix_expansion).toBe(entry.metas[0]!.matrix.matrix_expansion);
      for (const [type, est] of [
        [':cvi', headline!.cvi],
        [':cvg', headline!.cvg],
      ] as const) {
        const meta = entry.metas.find((x) => x.var_type === type);
        if (!meta) {
          expect(est).toBeNull();
          continue;
        }
        expect(est).toMatchObject({ median: meta.median, lower: meta.lower, upper: meta.upper });
      }
    }
    const first = measurands.data[0]!;
    const stored = await allResultsOf(first.analyte.id);
    const cvi = first.metas[0]!.cvi ?? first.metas[0]!.cvg!;
    expect(stored.some((s) => s.updated_at === cvi.updated_at && s.median === cvi.median)).toBe(true);
  });
});

describe('bad input is a 400 with a message, never a 500', () => {
  it.each([
    '/api/meta_calculations?limit=-1',
    '/api/meta_calculations?limit=abc',
    '/api/meta_calculations?limit=1.5',
    '/api/meta_calculations?limit=100000',
    '/api/meta_calculations?offset=-3',
    '/api/meta_calculations?offset=x',
    '/api/meta_calculations?format=xml',
    '/api/measurands?format=csv',
    '/api/meta_calculations/meta_by_analyte/abc',
  ])('%s', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBeTruthy();
  });
});

describe('limits: every lower/upper pair says what it is (issue 27.7, an added key)', () => {
  const expected = (n: number) => (n === 0 ? null : n === 1 || n > 10 ? '95 % CI' : 'range');
  interface Pair {
    number_used: number;
    limits: string | null;
  }

  it('in /api/meta_calculations, meta_by_analyte, /api/measurands and the v1 list', async () => {
    const legacy = (await ctx.app.inject({ url: '/api/meta_calculations' })).json<{
      data: { analyte: { id: number }; metas: Pair[] }[];
    }>();
    const pairs: Pair[] = legacy.data.flatMap((e) => e.metas);
    const one = legacy.data[0]!.analyte.id;
    const byAnalyte = (await ctx.app.inject({ url: `/api/meta_calculations/meta_by_analyte/${one}` })).json<{
      data: { metas: (Pair & { method: string })[] }[];
    }>();
    pairs.push(...byAnalyte.data[0]!.metas);
    const measurands = (await ctx.app.inject({ url: '/api/measurands' })).json<{
      data: { metas: { cvi: Pair | null; cvg: Pair | null }[] }[];
    }>();
    for (const e of measurands.data)
      for (const m of e.metas) for (const p of [m.cvi, m.cvg]) if (p) pairs.push(p);
    const v1 = (await ctx.app.inject({ url: '/api/v1/metas?limit=1000' })).json<{ data: Pair[] }>();
    pairs.push(...v1.data);
    expect(pairs.length).toBeGreaterThan(0);
    for (const p of pairs) expect(p.limits).toBe(expected(p.number_used));
    expect(new Set(pairs.map((p) => p.limits))).toEqual(new Set(['95 % CI', 'range']));
  });
});
