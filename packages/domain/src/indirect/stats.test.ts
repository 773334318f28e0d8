/**
 * The bootstrap's order statistics: sorted values with multiplicities, read through prefix sums, must
 * give exactly what the expanded sample gives (R's type-7 quantile, the SD, the bin counts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binCountsOf, momentsOf, nelderMead, quantileOf, weigh } from './stats.js';

/** R's quantile(x, p, type = 7) of an unsorted array. */
function type7(values: readonly number[], p: number): number {
  const x = [...values].sort((a, b) => a - b);
  const h = (x.length - 1) * p;
  const lo = Math.floor(h);
  return (x[lo] as number) + (h - lo) * ((x[Math.min(lo + 1, x.length - 1)] as number) - (x[lo] as number));
}

const sample = fc
  .array(fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.integer({ min: 0, max: 4 })), {
    minLength: 1,
    maxLength: 40,
  })
  .filter((pairs) => pairs.some(([, w]) => w > 0));

function expand(pairs: readonly [number, number][]) {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const y = Float64Array.from(sorted, ([v]) => v);
  const w = Float64Array.from(sorted, ([, k]) => k);
  const expanded = sorted.flatMap(([v, k]) => Array<number>(k).fill(v));
  return { y, w, expanded };
}

describe('weighted order statistics', () => {
  it('quantiles equal R type 7 on the expanded sample', () => {
    fc.assert(
      fc.property(sample, fc.double({ min: 0, max: 1, noNaN: true }), (pairs, p) => {
        const { y, w, expanded } = expand(pairs);
        expect(quantileOf(weigh(y, w), p)).toBeCloseTo(type7(expanded, p), 12);
      }),
      { seed: 46 },
    );
  });

  it('count, mean and SD within a range equal the expanded sample’s', () => {
    fc.assert(
      fc.property(
        sample,
        fc.double({ min: -1, max: 0, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (pairs, lo, hi) => {
          const { y, w, expanded } = expand(pairs);
          const inside = expanded.filter((v) => v >= lo && v <= hi);
          const m = momentsOf(weigh(y, w), lo, hi);
          expect(m.n).toBe(inside.length);
          if (inside.length > 1) {
            const mean = inside.reduce((a, b) => a + b, 0) / inside.length;
            const sd = Math.sqrt(inside.reduce((a, b) => a + (b - mean) ** 2, 0) / (inside.length - 1));
            expect(m.mean).toBeCloseTo(mean, 10);
            expect(m.sd).toBeCloseTo(sd, 8);
          }
        },
      ),
      { seed: 47 },
    );
  });

  it('bin counts equal counting the expanded sample into equal bins (last bin closed)', () => {
    fc.assert(
      fc.property(sample, fc.integer({ min: 1, max: 12 }), (pairs, bins) => {
        const { y, w, expanded } = expand(pairs);
        const lo = -0.5;
        const hi = 0.5;
        const width = (hi - lo) / bins;
        const expected = new Array<number>(bins).fill(0);
        for (const v of expanded) {
          if (v < lo || v > hi) continue;
          // the bin whose edges, computed as the code computes them, hold v
          let b = 0;
          while (b < bins - 1 && v >= lo + (b + 1) * width) b++;
          expected[b] = (expected[b] ?? 0) + 1;
        }
        expect(Array.from(binCountsOf(weigh(y, w), lo, hi, bins))).toEqual(expected);
      }),
      { seed: 48 },
    );
  });

  it('Nelder–Mead finds the minimum of Rosenbrock’s function', () => {
    const rosen = (x: readonly number[]) =>
      100 * ((x[1] ?? 0) - (x[0] ?? 0) ** 2) ** 2 + (1 - (x[0] ?? 0)) ** 2;
    const best = nelderMead(rosen, [-1.2, 1], [0.1, 0.1], 2000, 1e-14);
    expect(best.x[0]).toBeCloseTo(1, 3);
    expect(best.x[1]).toBeCloseTo(1, 3);
  });
});
