import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';
import { createStatsPool } from '../modules/meta-analysis/stats/stats.service.js';
import { MAX_JSON_DEPTH } from '../lib/json-depth.js';

const ctx = useTestApp({ demo: false });

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const row = { ID: 1, Include: true, Score: 'C', CV: 18.8, CI_lower: 14.6, CI_upper: 25.5 };

describe('a JSON body nested too deep (issue 25, point 1)', () => {
  it('is a 400 naming the limit on the statistics endpoint, every time, and the server goes on', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/stats/metacalculation',
        headers: { 'content-type': 'application/json' },
        payload: nested(10_000),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(
        `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    const ok = await ctx.app.inject({ method: 'POST', url: '/api/stats/metacalculation', payload: [row] });
    expect(ok.statusCode).toBe(200);
  });

  it('accepts nesting up to the limit, and brackets inside strings do not count', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ rows: [{ ...row, ID: '[['.repeat(5000) }] }),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('rows that are not flat objects are refused on the event loop with a message naming the row', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      payload: [row, { ...row, CV: { deep: [[[1]]] } }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(
      'Row 2: CV must be a number, text, true/false or null',
    );
  });
});

describe('the statistics pool hands out work safely', () => {
  it('a task that cannot be sent to a thread fails alone; the thread is freed and stays usable', async () => {
    const pool = createStatsPool({ size: 1, maxQueue: 4, timeoutMs: 15_000 });
    try {
      const unclonable = { rows: [{ ...row, f: () => 1 }] };
      await expect(pool.run({ body: unclonable, seed: 1 })).rejects.toMatchObject({ statusCode: 400 });
      // Not left marked busy with its time limit armed (that timer's throw once ended the process).
      expect(pool.load).toEqual({ running: 0, waiting: 0 });
      const result = await pool.run({ body: [row], seed: 1 });
      expect(result.N).toBe(1);
    } finally {
      await pool.close();
    }
  });
});

describe('the requests started last, named by the last-resort fault log', () => {
  it('are the ids Fastify gives requests, newest first, the last 64 at most', async () => {
    const before = ctx.app.recentRequests.list().length;
    await ctx.app.inject({ url: '/healthz' });
    const after = ctx.app.recentRequests.list();
    expect(after.length).toBe(Math.min(64, before + 1));
    expect(after[0]).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
    for (let i = 0; i < 70; i++) await ctx.app.inject({ url: '/healthz' });
    const ids = ctx.app.recentRequests.list();
    expect(ids).toHaveLength(64);
    expect(new Set(ids).size).toBe(64);
    const counter = (id: string) => parseInt(id.slice(id.lastIndexOf('-') + 1), 36);
    expect(counter(ids[0]!)).toBe(counter(ids[63]!) + 63);
  });
});
