import { describe, expect, it } from 'vitest';
import { agreementShare, cohensKappa, disputedItems, finalGradesOf } from './appraisal.js';
import { QUALITY_ITEMS, type BivacGrades } from './bivac.js';

const allA = Object.fromEntries(QUALITY_ITEMS.map((i) => [i.key, 'A'])) as BivacGrades;

describe("Cohen's kappa", () => {
  it('matches a hand-computed example', () => {
    // 10 datasets, grades of assessor A and B on one item:
    //            B: A   B   C
    //   A: A        4   1   0    (5)
    //   A: B        1   2   0    (3)
    //   A: C        0   1   1    (2)
    //               5   4   1
    // pₒ = (4 + 2 + 1) / 10 = 0.7
    // pₑ = 0.5·0.5 + 0.3·0.4 + 0.2·0.1 = 0.25 + 0.12 + 0.02 = 0.39
    // κ = (0.7 − 0.39) / (1 − 0.39) = 0.31 / 0.61 = 0.508196…
    const pairs: [string, string][] = [
      ...Array<[string, string]>(4).fill(['A', 'A']),
      ['A', 'B'],
      ['B', 'A'],
      ['B', 'B'],
      ['B', 'B'],
      ['C', 'B'],
      ['C', 'C'],
    ];
    expect(cohensKappa(pairs)).toBeCloseTo(0.31 / 0.61, 12);
    expect(agreementShare(pairs)).toBeCloseTo(0.7, 12);
  });

  it('is 1 for perfect agreement over several categories, 0 or below for chance-level or worse', () => {
    expect(
      cohensKappa([
        ['A', 'A'],
        ['B', 'B'],
        ['C', 'C'],
      ]),
    ).toBe(1);
    // Systematic disagreement: pₒ = 0, pₑ = 0.5 → κ = −1.
    expect(
      cohensKappa([
        ['A', 'B'],
        ['B', 'A'],
      ]),
    ).toBe(-1);
  });

  it('is undefined (null) without pairs or when both used one category throughout', () => {
    expect(cohensKappa([])).toBeNull();
    expect(
      cohensKappa([
        ['A', 'A'],
        ['A', 'A'],
      ]),
    ).toBeNull();
    expect(agreementShare([])).toBeNull();
  });
});

describe('comparing two appraisals', () => {
  it('lists the disputed items in checklist order and merges the third decision', () => {
    const a = { ...allA, samples: 'B', ci: 'C' } as BivacGrades;
    const b = { ...allA, ci: 'A' } as BivacGrades;
    expect(disputedItems(a, b)).toEqual(['samples', 'ci']);
    expect(disputedItems(a, a)).toEqual([]);
    const final = finalGradesOf(a, b, { samples: 'A', ci: 'C' });
    expect(final).toEqual({ ...allA, ci: 'C' });
    expect(() => finalGradesOf(a, b, { samples: 'A' })).toThrow(/ci/);
  });
});
