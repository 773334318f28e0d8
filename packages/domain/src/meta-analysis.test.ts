import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metaAnalyse, roundMetaResult, type MetaInputRow } from './meta-analysis.js';
import { readTestCsv } from './test-data.js';
import { weightedMedian } from './weighted-median.js';

const examples = readTestCsv('meta_analysis_examples.csv');
const cases = [...new Set(examples.map((r) => r.case!))];

describe('metaAnalyse: published worked examples (meta_analysis_examples.csv)', () => {
  it.each(cases)('%s', (name) => {
    const rows = examples.filter((r) => r.case === name);
    const result = metaAnalyse(
      rows.map((r) => ({
        id: r.row_ID!,
        include: r.Include === 'TRUE',
        score: r.Score as MetaInputRow['score'],
        cv: Number(r.CV),
        ciLower: Number(r.CI_lower),
        ciUpper: Number(r.CI_upper),
      })),
    );
    const expected = rows[0]!;
    expect(result.n).toBe(Number(expected.expected_N));
    expect(result.weightedMedian).toBeCloseTo(Number(expected.expected_W_Median), 5);
    expect(result.rangeLower).toBeCloseTo(Number(expected.expected_Range_lower), 6);
    expect(result.rangeUpper).toBeCloseTo(Number(expected.expected_Range_upper), 6);
  });
});

const row = (
  id: string | number,
  cv: number,
  lo: number,
  hi: number,
  score: MetaInputRow['score'] = 'C',
  include = true,
): MetaInputRow => ({
  id,
  include,
  score,
  cv,
  ciLower: lo,
  ciUpper: hi,
});

describe('metaAnalyse: edge cases', () => {
  it('N = 0: every output null', () => {
    expect(metaAnalyse([])).toMatchObject({
      n: 0,
      weightedMedian: null,
      rangeLower: null,
      rangeUpper: null,
      method: 'none',
    });
  });

  it('all grade D: nothing enters', () => {
    const r = metaAnalyse([row(1, 5, 4, 6, 'D'), row(2, 6, 5, 7, 'D')]);
    expect(r.n).toBe(0);
    expect(r.excluded.map((e) => e.reason)).toEqual(['grade D', 'grade D']);
  });

  it('one study: its CV and its own CI', () => {
    expect(metaAnalyse([row(1, 12, 10, 15, 'B')])).toMatchObject({
      n: 1,
      weightedMedian: 12,
      rangeLower: 10,
      rangeUpper: 15,
      method: 'single',
    });
  });

  it('rows not included or with a missing value are left out', () => {
    const r = metaAnalyse([
      row(1, 5, 4, 6),
      row(2, 9, 8, 10, 'A', false),
      { ...row(3, 7, 6, 8), ciUpper: null },
    ]);
    expect(r.n).toBe(1);
    expect(r.weightedMedian).toBe(5);
    expect(r.excluded).toEqual([
      { id: '2', reason: 'not included by the curator' },
      { id: '3', reason: 'no confidence interval' },
    ]);
  });

  it('a zero-width CI cannot be weighted and is excluded with the reason', () => {
    const r = metaAnalyse([row(1, 5, 5, 5), row(2, 6, 5, 7)]);
    expect(r.n).toBe(1);
    expect(r.excluded).toEqual([{ id: '1', reason: 'zero-width or inverted confidence interval' }]);
  });

  it('rows with a duplicate id collapse into one study with the worst grade', () => {
    const r = metaAnalyse([row('s', 4, 3, 5, 'A'), row('s', 6, 5, 9, 'B'), row('t', 10, 9, 11, 'A')]);
    expect(r.n).toBe(2);
    const s = r.studies.find((x) => x.id === 's')!;
    expect(s.rowCount).toBe(2);
    expect(s.grade).toBe('B');
    // Weights 1/2 and 1/4 → the weighted median of (4, 6) with those weights.
    expect(s.cv).toBeCloseTo(weightedMedian([4, 6], [1 / 2, 1 / 4])!, 12);
  });

  it('ties: equal values give that value', () => {
    expect(metaAnalyse([row(1, 5, 4, 6), row(2, 5, 4, 6), row(3, 5, 4, 6)]).weightedMedian).toBe(5);
  });

  it('eleven studies: a seeded bootstrap, reproducible from its seed', () => {
    const rows = Array.from({ length: 11 }, (_, i) =>
      row(i, 4 + i * 0.5, 3 + i * 0.5, 6 + i * 0.45, i % 2 ? 'A' : 'B'),
    );
    const a = metaAnalyse(rows, { seed: 7 });
    const b = metaAnalyse(rows, { seed: 7 });
    expect(a.method).toBe('bootstrap');
    expect(a.resamples).toBe(999);
    expect(a.seed).toBe(7);
    expect(b).toEqual(a);
    expect(a.rangeLower!).toBeLessThanOrEqual(a.weightedMedian!);
    expect(a.rangeUpper!).toBeGreaterThanOrEqual(a.weightedMedian!);
    expect(a.rangeLower!).toBeGreaterThanOrEqual(4);
    expect(a.rangeUpper!).toBeLessThanOrEqual(9);
    // The default seed is recorded too.
    expect(metaAnalyse(rows).seed).toBe(20180501);
  });

  it('rounds the service output to 4 decimals', () => {
    const r = roundMetaResult(metaAnalyse([row(1, 18.8, 14.648, 25.564), row(2, 20.1, 15, 27)]));
    expect(r.weightedMedian).toBe(19.4193);
  });

  it('weights sum to 1 and follow grade × 1/width', () => {
    const r = metaAnalyse([row(1, 5, 4, 6, 'A'), row(2, 7, 6, 8, 'C')]);
    expect(r.studies.map((s) => s.weight)).toEqual([2, 0.5]);
    expect(r.studies.reduce((s, x) => s + x.normalisedWeight, 0)).toBeCloseTo(1, 12);
  });
});

const studyArb = fc.record({
  cv: fc.double({ min: 0.1, max: 100, noNaN: true }),
  lo: fc.double({ min: 0.01, max: 50, noNaN: true }),
  width: fc.double({ min: 0.01, max: 50, noNaN: true }),
  score: fc.constantFrom<MetaInputRow['score']>('A', 'B', 'C'),
});

describe('properties', () => {
  it('the weighted median lies between the smallest and largest value', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: -1e6, max: 1e6, noNaN: true }),
            fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
          ),
          { minLength: 1, maxLength: 40 },
        ),
        (pairs) => {
          const m = weightedMedian(
            pairs.map((p) => p[0]),
            pairs.map((p) => p[1]),
          )!;
          const xs = pairs.map((p) => p[0]);
          return m >= Math.min(...xs) - 1e-9 && m <= Math.max(...xs) + 1e-9;
        },
      ),
    );
  });

  it('scaling every weight changes nothing', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.double({ min: -1e3, max: 1e3, noNaN: true }),
            fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
        (pairs, k) => {
          const xs = pairs.map((p) => p[0]);
          const a = weightedMedian(
            xs,
            pairs.map((p) => p[1]),
          )!;
          const b = weightedMedian(
            xs,
            pairs.map((p) => p[1] * k),
          )!;
          return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
        },
      ),
    );
  });

  it('permuting the rows changes nothing, bootstrap included', () => {
    fc.assert(
      fc.property(
        fc.array(studyArb, { minLength: 1, maxLength: 14 }).chain((studies) =>
          fc.tuple(
            fc.constant(studies),
            fc.shuffledSubarray(
              studies.map((_, i) => i),
              { minLength: studies.length, maxLength: studies.length },
            ),
          ),
        ),
        ([studies, order]) => {
          const rows = studies.map((s, i) => row(`s${i}`, s.cv, s.lo, s.lo + s.width, s.score));
          const a = metaAnalyse(rows, { seed: 3 });
          const b = metaAnalyse(
            order.map((i) => rows[i]!),
            { seed: 3 },
          );
          return (
            a.weightedMedian === b.weightedMedian &&
            a.rangeLower === b.rangeLower &&
            a.rangeUpper === b.rangeUpper &&
            a.n === b.n
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
