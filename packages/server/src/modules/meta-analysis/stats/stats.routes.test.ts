import { describe, expect, it } from 'vitest';
import { metaAnalyse } from '@bvdb/domain';
import { useTestApp } from '../../../test/test-app.js';

const ctx = useTestApp({ demo: false });

const rows = [
  { ID: 1, Include: true, Score: 'C', CV: 18.8, CI_lower: 14.648, CI_upper: 25.564 },
  { ID: 2, Include: true, Score: 'C', CV: 20.1, CI_lower: 15.0, CI_upper: 27.0 },
];
const csv =
  'ID,Include,Score,CV,CI_lower,CI_upper\r\n1,TRUE,C,18.8,14.648,25.564\r\n"2",TRUE,C,20.1,15.0,27.0\r\n';

describe('POST /api/stats/metacalculation', () => {
  it("gives the live service's answer for the cross-validated case, rounded to 4 decimals", async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/api/stats/metacalculation', payload: rows });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ N: 2, 'W.Median': 19.4193, Range_lower: 18.8, Range_upper: 20.1 });
  });

  it('gives the same answer for JSON and CSV', async () => {
    const a = (
      await ctx.app.inject({ method: 'POST', url: '/api/stats/metacalculation', payload: { rows } })
    ).json();
    const b = (
      await ctx.app.inject({
        method: 'POST',
        url: '/api/stats/metacalculation',
        headers: { 'content-type': 'text/csv' },
        payload: csv,
      })
    ).json();
    expect(b).toEqual(a);
  });

  it('returns the weights and the seed, and matches the domain engine for a bootstrap case', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      ID: `s${i}`,
      Include: true,
      Score: i % 2 ? 'A' : 'B',
      CV: 5 + i * 0.7,
      CI_lower: 4 + i * 0.6,
      CI_upper: 7 + i * 0.8,
    }));
    const res = (
      await ctx.app.inject({ method: 'POST', url: '/api/stats/metacalculation?seed=42', payload: many })
    ).json<{
      N: number;
      seed: number;
      method: string;
      Range_lower: number;
      weights: { weight: number }[];
    }>();
    const direct = metaAnalyse(
      many.map((r) => ({
        id: r.ID,
        include: true,
        score: r.Score as 'A' | 'B',
        cv: r.CV,
        ciLower: r.CI_lower,
        ciUpper: r.CI_upper,
      })),
      { seed: 42 },
    );
    expect(res.N).toBe(12);
    expect(res.method).toBe('bootstrap');
    expect(res.seed).toBe(42);
    expect(res.Range_lower).toBeCloseTo(direct.rangeLower!, 4);
    // Each weight rounded to 4 decimals: the sum is 1 within half a unit of the 4th decimal per study.
    const sum = res.weights.reduce((s, w) => s + w.weight, 0);
    expect(Math.abs(sum - 1)).toBeLessThanOrEqual(res.weights.length * 0.00005);
  });

  it('keeps Include-true grade-D rows as the R service does: weight 0, counted in N and the range', async () => {
    // Weights A 4/4 = 1, B 2/4 = 0.5, D 0 → normalised 2/3, 1/3 (D out of the median); centred
    // cumulative 1/3, 5/6; median = 20 + (0.5 − 5/6)(20 − 10)/(5/6 − 1/3) = 13.3333.
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      payload: [
        { ID: 1, Include: true, Score: 'A', CV: 10, CI_lower: 8, CI_upper: 12 },
        { ID: 2, Include: true, Score: 'B', CV: 20, CI_lower: 18, CI_upper: 22 },
        { ID: 3, Include: true, Score: 'D', CV: 40, CI_lower: 30, CI_upper: 50 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ weights: { ID: string; weight: number }[] }>();
    expect(body).toMatchObject({
      N: 3,
      'W.Median': 13.3333,
      Range_lower: 10,
      Range_upper: 40,
      method: 'range',
    });
    expect(body.weights.map((w) => [w.ID, w.weight])).toEqual([
      ['1', 0.6667],
      ['2', 0.3333],
      ['3', 0],
    ]);
  });

  it('gives a zero-width CI infinite weight as the R service does: the median is its CV', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'text/csv' },
      payload:
        'ID,Include,Score,CV,CI_lower,CI_upper\n1,TRUE,A,10,8,12\n2,TRUE,A,15,15,15\n3,TRUE,B,30,25,35\n',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ N: 3, 'W.Median': 15, Range_lower: 10, Range_upper: 30 });
  });

  it('answers nulls when no row is usable', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      payload: [{ ...rows[0], Include: false }],
    });
    expect(res.json()).toMatchObject({ N: 0, 'W.Median': null, Range_lower: null, Range_upper: null });
  });

  it('names the row and the field of a malformed row', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      payload: [rows[0], { ...rows[1], Score: 'E' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/Row 2.*Score/);
    const badCv = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'text/csv' },
      payload: 'ID,Include,Score,CV,CI_lower,CI_upper\n1,TRUE,C,abc,1,2\n',
    });
    expect(badCv.statusCode).toBe(400);
    expect(badCv.json<{ message: string }>().message).toMatch(/Row 1.*CV/);
    const noHeader = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'text/csv' },
      payload: 'ID,CV\n1,2\n',
    });
    expect(noHeader.statusCode).toBe(400);
    expect(noHeader.json<{ message: string }>().message).toMatch(/Include/);
  });

  it('answers 400 for CSV it cannot read', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stats/metacalculation',
      headers: { 'content-type': 'text/csv' },
      payload: 'ID,Include,Score,CV,CI_lower,CI_upper\n"1,TRUE,C,5,4,6\n',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/^The CSV body could not be read/);
  });

  it('GET /api/stats/health answers OK', async () => {
    const res = await ctx.app.inject({ url: '/api/stats/health' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('OK');
  });
});
