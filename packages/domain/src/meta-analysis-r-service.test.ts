import { describe, expect, it } from 'vitest';
import { metaAnalyse, type MetaInputRow } from './meta-analysis.js';
import { metaAnalyseRService } from './meta-analysis-r-service.js';
import { mulberry32 } from './prng.js';
import { weightedMedian } from './weighted-median.js';

const row = (id: number, score: MetaInputRow['score'], cv: number, lo: number, hi: number): MetaInputRow => ({
  id,
  include: true,
  score,
  cv,
  ciLower: lo,
  ciUpper: hi,
});

describe('weightedMedian with infinite weights (matrixStats)', () => {
  it('only the infinite-weight values count, equally', () => {
    expect(weightedMedian([10, 15, 30], [1, Infinity, 0.2])).toBe(15);
    expect(weightedMedian([10, 14, 16], [1, Infinity, Infinity])).toBe(15);
  });
});

describe('the R service rule (metaAnalyseRService)', () => {
  // Weights: A 4/4 = 1, B 2/4 = 0.5, D 0. Normalised without D: 2/3, 1/3; centred cumulative
  // 1/3, 5/6; median = 20 + (0.5 − 5/6)(20 − 10)/(5/6 − 1/3) = 13.3333.
  const withD = [row(1, 'A', 10, 8, 12), row(2, 'B', 20, 18, 22), row(3, 'D', 40, 30, 50)];

  it('keeps Include-true grade-D rows: weight 0 in the median, counted in N and in the range', () => {
    const r = metaAnalyseRService(withD);
    expect(r.n).toBe(3);
    expect(r.weightedMedian).toBeCloseTo(13.333333, 5);
    expect([r.rangeLower, r.rangeUpper]).toEqual([10, 40]);
    expect(r.studies.find((s) => s.id === '3')!.normalisedWeight).toBe(0);
    // bvdb's own rule leaves the grade-D row out altogether (decision 003).
    const own = metaAnalyse(withD);
    expect(own.n).toBe(2);
    expect(own.weightedMedian).toBeCloseTo(13.333333, 5);
    expect([own.rangeLower, own.rangeUpper]).toEqual([10, 20]);
  });

  it('gives a zero-width CI infinite weight: the median is its CV; N and range count every study', () => {
    const rows = [row(1, 'A', 10, 8, 12), row(2, 'A', 15, 15, 15), row(3, 'B', 30, 25, 35)];
    const r = metaAnalyseRService(rows);
    expect(r.n).toBe(3);
    expect(r.weightedMedian).toBe(15);
    expect([r.rangeLower, r.rangeUpper]).toEqual([10, 30]);
    // bvdb: the zero-width study is out; (10, w 1) and (30, w 0.2): centred cumulative 5/12, 11/12;
    // 30 + (0.5 − 11/12)(30 − 10)/(11/12 − 5/12) = 13.3333.
    const own = metaAnalyse(rows);
    expect(own.n).toBe(2);
    expect(own.weightedMedian).toBeCloseTo(13.333333, 5);
  });

  it('a single grade-D study gives its CV and CI, as the service does', () => {
    const r = metaAnalyseRService([row(7, 'D', 12, 10, 14)]);
    expect(r).toMatchObject({ n: 1, weightedMedian: 12, rangeLower: 10, rangeUpper: 14, method: 'single' });
    expect(metaAnalyse([row(7, 'D', 12, 10, 14)]).n).toBe(0);
  });

  it('on rows both rules accept, both give the same result, bootstrap included', () => {
    const random = mulberry32(5);
    const rows = Array.from({ length: 14 }, (_, i) => {
      const cv = 3 + random() * 20;
      const half = 0.5 + random() * 4;
      return row(i + 1, (['A', 'B', 'C'] as const)[i % 3]!, cv, cv - half, cv + half);
    });
    const a = metaAnalyse(rows);
    const b = metaAnalyseRService(rows);
    expect(b.method).toBe('bootstrap');
    expect(b.n).toBe(a.n);
    expect(b.weightedMedian).toBeCloseTo(a.weightedMedian!, 10);
    expect(b.rangeLower).toBeCloseTo(a.rangeLower!, 10);
    expect(b.rangeUpper).toBeCloseTo(a.rangeUpper!, 10);
  });

  it('bootstraps grade-D studies as weight-0 studies (N 12 against 11)', () => {
    const random = mulberry32(9);
    const rows = Array.from({ length: 12 }, (_, i) => {
      const cv = 3 + random() * 20;
      return row(i + 1, i === 0 ? 'D' : 'A', cv, cv - 1, cv + 1);
    });
    const r = metaAnalyseRService(rows);
    expect(r.n).toBe(12);
    expect(r.method).toBe('bootstrap');
    expect(r.rangeLower).not.toBeNull();
    expect(r.rangeLower!).toBeLessThanOrEqual(r.weightedMedian!);
    expect(r.rangeUpper!).toBeGreaterThanOrEqual(r.weightedMedian!);
    expect(metaAnalyse(rows).n).toBe(11);
  });
});
