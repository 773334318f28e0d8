import { describe, expect, it } from 'vitest';
import { leaveOneOut } from './leave-one-out.js';

describe('leaveOneOut', () => {
  // Hand-computed with the interpolated weighted-median rule (weighted-median.ts):
  // all three: c = 0.25, 0.65 → 10 + (0.5 − 0.65)·5/0.4 = 8.125
  // without A: B 0.6, C 0.4; c = 0.3, 0.8 → 20 + (0.5 − 0.8)·10/0.5 = 14
  // without B: A 5/7, C 2/7; c = 5/14, 6/7 → 20 − (5/14)·15/(7/14) = 65/7
  // without C: A 0.625, B 0.375; c = 0.3125, 0.8125 → 10 − 0.3125·5/0.5 = 6.875
  const studies = [
    { id: 'A', cv: 5, weight: 0.5 },
    { id: 'B', cv: 10, weight: 0.3 },
    { id: 'C', cv: 20, weight: 0.2 },
  ];

  it.each([
    ['A', 14, 5.875],
    ['B', 65 / 7, 65 / 7 - 8.125],
    ['C', 6.875, -1.25],
  ])('without %s the weighted median is %f', (id, median, shift) => {
    const row = leaveOneOut(studies).find((r) => r.id === id)!;
    expect(row.weightedMedian).toBeCloseTo(median, 10);
    expect(row.shift).toBeCloseTo(shift, 10);
  });

  it('does not depend on the scale of the weights', () => {
    const scaled = studies.map((s) => ({ ...s, weight: s.weight * 37 }));
    expect(leaveOneOut(scaled)).toEqual(leaveOneOut(studies));
  });

  it('leaves nothing when there is one study, and nothing to do for none', () => {
    expect(leaveOneOut([{ id: 'A', cv: 5, weight: 1 }])).toEqual([
      { id: 'A', weightedMedian: null, shift: null },
    ]);
    expect(leaveOneOut([])).toEqual([]);
  });
});
