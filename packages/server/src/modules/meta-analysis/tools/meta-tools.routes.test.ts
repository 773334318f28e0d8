import { metaAnalyse } from '@bvdb/domain';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bvSpecifications } from '../../../db/schema.js';
import { createTestApp, json, type TestContext } from '../../../test/test-app.js';
import { signInAs } from '../../../test/sign-in.js';
import { metaEligibility } from '../calculation/meta-eligibility.js';

let ctx: TestContext;
let auth: Awaited<ReturnType<typeof signInAs>>;
type Spec = typeof bvSpecifications.$inferSelect;
let base: Spec;

beforeAll(async () => {
  ctx = await createTestApp();
  auth = await signInAs(ctx.app);
  // A demo dataset that enters both meta-analyses: the template every failing case changes one thing of.
  const candidates = await ctx.database.db
    .select()
    .from(bvSpecifications)
    .where(and(eq(bvSpecifications.includeInMetaAnalysis, true), isNotNull(bvSpecifications.estimatesOfCvg)))
    .orderBy(asc(bvSpecifications.id));
  base = candidates.find((s) => metaEligibility(s, ':cvi').usable && metaEligibility(s, ':cvg').usable)!;
});
afterAll(async () => ctx.close());

async function copyOf(overrides: Partial<Spec>): Promise<number> {
  const { id: _id, ...rest } = base;
  const [row] = await ctx.database.db
    .insert(bvSpecifications)
    .values({ ...rest, uniqueIdentifier: `copy-${Math.random()}`, ...overrides })
    .returning({ id: bvSpecifications.id });
  return row!.id;
}

const validate = (ids: unknown[], headers: Record<string, string> = auth.headers) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/bv_specifications/validate_for_meta/',
    headers,
    payload: { ids },
  });

type Row = [
  { id: number; reference: { id: number }; unique_identifier: string; grade: string; cvi: unknown },
  [number, string],
  [number, string],
];

describe('POST /api/bv_specifications/validate_for_meta/', () => {
  it('is for signed-in users only', async () => {
    const res = await validate([base.id], {});
    expect(res.statusCode).toBe(401);
  });

  it('answers 1 with the CI source for a usable dataset, and the specification with its reference', async () => {
    const res = await validate([base.id]);
    expect(res.statusCode).toBe(200);
    const [row] = json<{ output: Row[] }>(res).output;
    expect(row![0]).toMatchObject({
      id: base.id,
      unique_identifier: base.uniqueIdentifier,
      reference: { id: base.referenceId },
    });
    expect(row![1][0]).toBe(1);
    expect(row![1][1]).toMatch(/^Included in Meta-Analysis \((reported|calculated) CI\)$/);
    expect(row![2][0]).toBe(1);
  });

  const cases: [string, Partial<Spec>, string, string][] = [
    [
      'not included',
      { includeInMetaAnalysis: false },
      'Not included in meta-analysis',
      'Not included in meta-analysis',
    ],
    ['not healthy', { healthy: false }, 'Not a healthy population', 'Not a healthy population'],
    ['overall grade D', { samples: 'D' }, 'Overall grade D', 'Overall grade D'],
    ['no CVI estimate', { estimatesOfCvi: null }, 'No estimate of CVI', 'Included'],
    [
      'no CI (neither reported nor calculated)',
      {
        reportedCviLower: null,
        reportedCviUpper: null,
        calculatedWithinLower: null,
        calculatedWithinUpper: null,
      },
      'No CI (neither reported nor calculated)',
      'Included',
    ],
    [
      'an inverted CI',
      { reportedCvgLower: 20, reportedCvgUpper: 10 },
      'Included',
      'Zero-width or inverted CI',
    ],
  ];
  it.each(cases)('%s: result 0 with the reason', async (_name, overrides, cviReason, cvgReason) => {
    const id = await copyOf(overrides);
    const [row] = json<{ output: Row[] }>(await validate([id])).output;
    for (const [result, expected] of [
      [row![1], cviReason],
      [row![2], cvgReason],
    ] as const) {
      if (expected === 'Included') expect(result[0]).toBe(1);
      else expect(result).toEqual([0, expect.stringContaining(expected)]);
    }
  });

  it('names every failing rule at once', async () => {
    const id = await copyOf({ includeInMetaAnalysis: false, healthy: false, samples: 'D' });
    const [row] = json<{ output: Row[] }>(await validate([id])).output;
    expect(row![1]).toEqual([0, 'Not included in meta-analysis; Not a healthy population; Overall grade D']);
  });

  it('lists unknown ids in not_found and still answers the others', async () => {
    const res = await validate([base.id, 99_999_999, base.id]);
    expect(res.statusCode).toBe(200);
    const body = json<{ output: Row[]; not_found: number[] }>(res);
    expect(body.output.map((r) => r[0].id)).toEqual([base.id]);
    expect(body.not_found).toEqual([99_999_999]);
  });

  it('rejects a body without ids', async () => {
    expect((await validate([])).statusCode).toBe(400);
    expect((await validate(['x'])).statusCode).toBe(400);
  });

  it('agrees with the domain engine: a row is usable exactly when the engine keeps it', async () => {
    const specs = await ctx.database.db.select().from(bvSpecifications);
    for (const s of specs)
      for (const t of [':cvi', ':cvg'] as const) {
        const e = metaEligibility(s, t);
        expect(metaAnalyse([{ ...e.row, include: true }]).n === 1 && e.row.include).toBe(e.usable);
      }
  });
});

describe('POST /api/meta_tools/metacalculation', () => {
  const rows = [
    { ID: '1', Include: true, Score: 'C', CV: 18.8, CI_lower: 14.648, CI_upper: 25.564 },
    { ID: '2', Include: true, Score: 'C', CV: 20.1, CI_lower: 15.0, CI_upper: 27.0 },
  ];

  it('answers what the built-in statistics service answers, with the weights', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/meta_tools/metacalculation',
      headers: auth.headers,
      payload: { rows },
    });
    expect(res.statusCode).toBe(200);
    const own = await ctx.app.inject({ method: 'POST', url: '/api/stats/metacalculation', payload: rows });
    const { bvdb_rule, ...service } = json<{ bvdb_rule: object }>(res);
    expect(service).toEqual({ ...json<object>(own), source: 'built-in' });
    expect(service).toMatchObject({ N: 2, 'W.Median': 19.4193, Range_lower: 18.8, Range_upper: 20.1 });
    // On rows both rules accept, bvdb's own rule gives the same.
    expect(bvdb_rule).toEqual(json<object>(own));
  });

  it("shows both views where they differ: the service keeps a grade-D row, bvdb's rule does not", async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/meta_tools/metacalculation',
      headers: auth.headers,
      payload: {
        rows: [
          { ID: '1', Include: true, Score: 'A', CV: 10, CI_lower: 8, CI_upper: 12 },
          { ID: '2', Include: true, Score: 'B', CV: 20, CI_lower: 18, CI_upper: 22 },
          { ID: '3', Include: true, Score: 'D', CV: 40, CI_lower: 30, CI_upper: 50 },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      N: 3,
      'W.Median': 13.3333,
      Range_upper: 40,
      bvdb_rule: { N: 2, 'W.Median': 13.3333, Range_lower: 10, Range_upper: 20 },
    });
  });

  it('is for signed-in users only', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/meta_tools/metacalculation',
      payload: { rows },
    });
    expect(res.statusCode).toBe(401);
  });

  it('honours STATS_URL: posts to {STATS_URL}/metacalculation and reads the first element of each array', async () => {
    const http = await import('node:http');
    let received: unknown = null;
    const server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        received = { url: req.url, body: JSON.parse(text) as unknown };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ N: [2], 'W.Median': [19.5], Range_lower: [18.8], Range_upper: ['NA'] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const remote = await createTestApp({ demo: false, env: { STATS_URL: `http://127.0.0.1:${port}/r/` } });
    try {
      const a = await signInAs(remote.app);
      const res = await remote.app.inject({
        method: 'POST',
        url: '/api/meta_tools/metacalculation',
        headers: a.headers,
        payload: { rows },
      });
      expect(res.statusCode).toBe(200);
      expect(json(res)).toMatchObject({
        N: 2,
        'W.Median': 19.5,
        Range_lower: 18.8,
        Range_upper: null,
        source: 'remote',
      });
      expect(received).toMatchObject({
        url: '/r/metacalculation',
        body: [{ ID: '1', CV: 18.8 }, { ID: '2' }],
      });
      const info = await remote.app.inject({ url: '/api/meta_tools/stats_service', headers: a.headers });
      expect(json(info)).toEqual({
        status_url: `http://127.0.0.1:${port}/r/health`,
        metacalculation_url: `http://127.0.0.1:${port}/r/metacalculation`,
        external: true,
      });
      server.close();
      const down = await remote.app.inject({
        method: 'POST',
        url: '/api/meta_tools/metacalculation',
        headers: a.headers,
        payload: { rows },
      });
      expect(down.statusCode).toBe(502);
      expect(json<{ message: string }>(down).message).toMatch(/^The statistics service did not answer/);
    } finally {
      server.close();
      await remote.close();
    }
  });
});

describe('GET /api/meta_tools/stats_service', () => {
  it('without STATS_URL points at our own health check, absolute', async () => {
    const res = await ctx.app.inject({
      url: '/api/meta_tools/stats_service',
      headers: { ...auth.headers, host: 'bv.example.org' },
    });
    expect(json(res)).toEqual({
      status_url: 'http://bv.example.org/api/stats/health',
      metacalculation_url: 'http://bv.example.org/api/stats/metacalculation',
      external: false,
    });
    expect((await ctx.app.inject({ url: '/api/meta_tools/stats_service' })).statusCode).toBe(401);
  });
});

describe('GET /api/meta_tools/input_tables/:analyte_id', () => {
  it('gives, per matrix, the CSV rows whose calculation is the stored result', async () => {
    const res = await ctx.app.inject({
      url: `/api/meta_tools/input_tables/${base.analyteId}`,
      headers: auth.headers,
    });
    expect(res.statusCode).toBe(200);
    const body = json<{ tables: { label: string; matrix_id: number | null; within: string }[] }>(res);
    const table = body.tables.find((t) => t.matrix_id === base.matrixId)!;
    const lines = table.within.split('\n');
    expect(lines[0]).toBe('ID,Include,Score,CV,CI_lower,CI_upper');
    // Data, not noise: at most 4 decimals in a cell.
    expect(table.within).not.toMatch(/\.\d{5,}/);
    const parsed = lines.slice(1).map((l) => {
      const [id, inc, score, cv, lo, hi] = l.split(',');
      const num = (v: string | undefined) => (v === 'NA' ? null : Number(v));
      return {
        id: id!,
        include: inc === 'TRUE',
        score: score as 'A',
        cv: num(cv),
        ciLower: num(lo),
        ciUpper: num(hi),
      };
    });
    const stored = await ctx.app.inject({
      url: `/api/meta_calculations/meta_by_analyte/${base.analyteId}`,
    });
    const meta = json<{ data: { metas: { matrix_id: number; var_type: string; median: number }[] }[] }>(
      stored,
    ).data[0]!.metas.find((m) => m.matrix_id === base.matrixId && m.var_type === ':cvi')!;
    expect(metaAnalyse(parsed).weightedMedian).toBeCloseTo(meta.median, 8);
  });

  it('404 for an unknown measurand, 401 signed out', async () => {
    const res = await ctx.app.inject({ url: '/api/meta_tools/input_tables/99999999', headers: auth.headers });
    expect(res.statusCode).toBe(404);
    expect((await ctx.app.inject({ url: `/api/meta_tools/input_tables/${base.analyteId}` })).statusCode).toBe(
      401,
    );
  });
});
