import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../lib/app-error.js';
import { useTestApp } from '../../../test/test-app.js';
import { createStatsPool } from './stats.service.js';

const ctx = useTestApp({ demo: false });

/** A CSV of `n` rows from distinct studies: above 10 rows the R rule runs 999 bootstrap resamples. */
function heavyCsv(n: number): string {
  const lines = ['ID,Include,Score,CV,CI_lower,CI_upper'];
  for (let i = 0; i < n; i++) {
    const cv = 5 + ((i * 7919) % 1000) / 100;
    lines.push(`${i},TRUE,${'ABC'[i % 3]},${cv},${(cv - 1).toFixed(2)},${(cv + 1.5).toFixed(2)}`);
  }
  return lines.join('\n');
}

describe('the statistics endpoint off the main thread', () => {
  const pool = createStatsPool({ size: 1, maxQueue: 1 });
  afterAll(() => pool.close());

  it('/healthz answers quickly while heavy statistics requests run', async () => {
    const body = heavyCsv(2000);
    const heavy = Array.from({ length: 4 }, () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/stats/metacalculation',
        headers: { 'content-type': 'text/csv' },
        payload: body,
      }),
    );
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      const res = await ctx.app.inject({ url: '/healthz' });
      latencies.push(performance.now() - t);
      expect(res.statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
    }
    const answers = await Promise.all(heavy);
    // Some may be refused when the pool's queue is full; every answer is 200 or a 503 with Retry-After.
    for (const a of answers) {
      if (a.statusCode === 503) expect(a.headers['retry-after']).toBeDefined();
      else expect(a.statusCode, a.body).toBe(200);
    }
    expect(answers.some((a) => a.statusCode === 200)).toBe(true);
    expect(answers.find((a) => a.statusCode === 200)!.json()).toMatchObject({ N: 2000, method: 'bootstrap' });
    latencies.sort((a, b) => a - b);
    console.log(
      `/healthz during 4 heavy stats requests: median ${latencies[5]!.toFixed(1)} ms, max ${latencies[9]!.toFixed(1)} ms`,
    );
    expect(latencies[9]!).toBeLessThan(1000);
  });

  it('caps the input: more than 10,000 rows or 512 KB is a 422 with a message', async () => {
    const rows = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'text/csv' },
      payload: heavyCsv(10_001),
    });
    expect(rows.statusCode).toBe(422);
    expect(rows.json<{ message: string }>().message).toMatch(/10,001 rows: at most 10,000 per request/);
    const big = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'text/csv' },
      payload: heavyCsv(10_000) + '\n'.padEnd(300_000, ' '),
    });
    expect(big.statusCode).toBe(422);
    expect(big.json<{ message: string }>().message).toMatch(/at most 512 KB per request/);
  });

  it('a full pool refuses with 503 and Retry-After instead of queueing for ever', async () => {
    const body = heavyCsv(1500);
    const runs = [pool.run({ body, seed: 1 }), pool.run({ body, seed: 2 }), pool.run({ body, seed: 3 })];
    const settled = await Promise.allSettled(runs);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(2);
    const refused = settled.find((s) => s.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(AppError);
    expect((refused.reason as AppError).statusCode).toBe(503);
    expect((refused.reason as AppError).extra.headers).toEqual({ 'Retry-After': '2' });
  });

  it('a bad row from a pool thread is still a 400 naming the row', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'text/csv' },
      payload: 'ID,Include,Score,CV,CI_lower,CI_upper\n1,TRUE,C,abc,1,2\n',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/Row 1.*CV/);
  });
});
