import { describe, expect, it } from 'vitest';
import {
  eligibilityOf,
  metaCiOf,
  exclusionReasonsOf,
  EXCLUSION_REASONS,
  type MetaCandidate,
} from './meta-eligibility.js';

const eligible: MetaCandidate = {
  includedByCurator: true,
  healthy: true,
  grade: 'B',
  cv: 5,
  ciLower: 4,
  ciUpper: 6,
};

describe('eligibilityOf: which datasets enter a meta-analysis', () => {
  it('lets in an included, healthy, graded estimate with a CI wider than zero', () => {
    expect(eligibilityOf(eligible)).toEqual({ eligible: true });
    expect(eligibilityOf({ ...eligible, grade: 'C' })).toEqual({ eligible: true });
    expect(exclusionReasonsOf(eligible)).toEqual([]);
  });

  const cases: [string, Partial<MetaCandidate>, (typeof EXCLUSION_REASONS)[number]][] = [
    ['curator left it out', { includedByCurator: false }, 'not included by the curator'],
    ['not healthy', { healthy: false }, 'not a healthy population'],
    ['a Bayesian or indirect study (decision 099)', { directAnova: false }, 'not a direct ANOVA study'],
    ['every BIVAC item NA', { grade: null }, 'no BIVAC grade'],
    ['overall grade D', { grade: 'D' }, 'grade D'],
    ['no CV', { cv: null }, 'no estimate'],
    ['a CV that is not a number', { cv: Number.NaN }, 'no estimate'],
    ['no lower limit', { ciLower: null }, 'no confidence interval'],
    ['no upper limit', { ciUpper: null }, 'no confidence interval'],
    ['an infinite limit', { ciUpper: Number.POSITIVE_INFINITY }, 'no confidence interval'],
    ['a zero-width CI', { ciLower: 5, ciUpper: 5 }, 'zero-width or inverted confidence interval'],
    ['an inverted CI', { ciLower: 6, ciUpper: 4 }, 'zero-width or inverted confidence interval'],
  ];
  it.each(cases)('%s: excluded with the reason', (_name, change, reason) => {
    expect(eligibilityOf({ ...eligible, ...change })).toEqual({ eligible: false, reason });
    expect(exclusionReasonsOf({ ...eligible, ...change })).toEqual([reason]);
  });

  it('takes a candidate that does not say its evidence class as a direct ANOVA study (every dataset before 0015)', () => {
    expect(eligibilityOf({ ...eligible, directAnova: true })).toEqual({ eligible: true });
    expect('directAnova' in eligible).toBe(false);
    expect(eligibilityOf(eligible)).toEqual({ eligible: true });
  });

  it('names every failing rule in the order of the list, and gives the first as the reason', () => {
    const worst = {
      includedByCurator: false,
      healthy: false,
      directAnova: false,
      grade: 'D',
      cv: null,
      ciLower: 6,
      ciUpper: 4,
    } as const;
    expect(exclusionReasonsOf(worst)).toEqual([
      'not included by the curator',
      'not a healthy population',
      'not a direct ANOVA study',
      'grade D',
      'no estimate',
      'zero-width or inverted confidence interval',
    ]);
    expect(eligibilityOf(worst)).toEqual({ eligible: false, reason: 'not included by the curator' });
  });

  it('every reason of the list is reachable', () => {
    const reached = new Set(cases.map(([, , reason]) => reason));
    expect([...reached].sort()).toEqual([...EXCLUSION_REASONS].sort());
  });
});

describe('metaCiOf', () => {
  it('takes the reported CI when both limits are given, else the calculated one, else none', () => {
    const none = { lower: null, upper: null };
    expect(metaCiOf({ lower: 1, upper: 2 }, { lower: 3, upper: 4 })).toEqual({
      ciLower: 1,
      ciUpper: 2,
      ciSource: 'reported',
    });
    expect(metaCiOf({ lower: 1, upper: null }, { lower: 3, upper: 4 })).toEqual({
      ciLower: 3,
      ciUpper: 4,
      ciSource: 'calculated',
    });
    expect(metaCiOf(none, none)).toEqual({ ciLower: null, ciUpper: null, ciSource: null });
  });
});
