import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changeProbability, rcvAsymmetric, rcvForMeans, zFromProbability } from './rcv.js';
import {
  assessChange,
  formatProbabilityReal,
  probabilityInWords,
  RESULTS_AVERAGED_PROMPT,
  zForChange,
  type ChangeInput,
} from './rcv-verdict.js';

// Glucose: CVI 5.6 %, CVA 2 %: σ = √(ln(1+0.056²)+ln(1+0.02²)) = 0.059422 (hand-computed, see below).
const glucose: ChangeInput = {
  first: 5.0,
  second: 5.8,
  cvi: 5.6,
  cva: 2,
  probability: 0.05,
  direction: 'one-direction',
};

describe('RCV between means of several results (Fraser, CCLM 2011)', () => {
  it('one result on each side is the classic asymmetric RCV', () => {
    expect(rcvForMeans(5.6, 2, 1.6449, 1, 1)).toEqual(rcvAsymmetric(5.6, 2, 1.6449));
  });

  it('two results on each side: √(1/2 + 1/2) = 1 instead of √2 (+10.27 % at p 0.05 one-sided)', () => {
    const z = zFromProbability(0.05);
    // exp(1.64485 · 1 · 0.059422) − 1 = 0.102677
    expect(rcvForMeans(5.6, 2, z, 2, 2).up).toBeCloseTo(10.268, 2);
    // one before, three after: √(1 + 1/3) → exp(1.64485 · 1.1547 · 0.059422) − 1 = 0.119477
    expect(rcvForMeans(5.6, 2, z, 1, 3).up).toBeCloseTo(11.948, 2);
  });

  it('refuses a count that is not a whole number from 1 to 20', () => {
    for (const n of [0, 1.5, 21, Number.NaN])
      expect(() => rcvForMeans(5.6, 2, 1.64, n, 1)).toThrow(/1 to 20/);
  });

  it('more results on either side narrow the RCV', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 19 }),
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0.1, max: 60, noNaN: true }),
        (n1, n2, cvi) => {
          const z = 1.96;
          expect(rcvForMeans(cvi, 3, z, n1 + 1, n2).up).toBeLessThan(rcvForMeans(cvi, 3, z, n1, n2).up);
        },
      ),
    );
  });
});

describe('the probability that a change is real (Fraser 2001, on the log scale)', () => {
  it('glucose 5.0 → 5.8 (+16 %): 96.1 % in the stated direction, 92.3 % in either', () => {
    // z = ln(1.16) / (0.059422 · √2) = 1.7664; Φ(z) = 0.96131; 2Φ(z) − 1 = 0.92263
    expect(changeProbability(16, 5.6, 2, 1, 1, 'one-direction')).toBeCloseTo(0.96131, 4);
    expect(changeProbability(16, 5.6, 2, 1, 1, 'either-direction')).toBeCloseTo(0.92263, 4);
  });

  it('a change exactly at the RCV for p has probability 1 − p (the inverse of the RCV)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 40, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.constantFrom(0.001, 0.01, 0.05, 0.1, 0.2),
        fc.constantFrom('one-direction' as const, 'either-direction' as const),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        (cvi, cva, p, direction, n1, n2) => {
          const { up, down } = rcvForMeans(cvi, cva, zForChange(p, direction), n1, n2);
          expect(changeProbability(up, cvi, cva, n1, n2, direction)).toBeCloseTo(1 - p, 6);
          expect(changeProbability(down, cvi, cva, n1, n2, direction)).toBeCloseTo(1 - p, 6);
        },
      ),
    );
  });

  it('grows with the size of the change, and is 0.5 / 0 for no change', () => {
    expect(changeProbability(0, 5.6, 2, 1, 1, 'one-direction')).toBe(0.5);
    expect(changeProbability(0, 5.6, 2, 1, 1, 'either-direction')).toBe(0);
    const sizes = [1, 5, 10, 20, 40];
    const ps = sizes.map((c) => changeProbability(c, 5.6, 2, 1, 1, 'either-direction'));
    for (let i = 1; i < ps.length; i++) expect(ps[i]).toBeGreaterThan(ps[i - 1]!);
  });
});

describe('assessChange with several results', () => {
  it('a +12 % change is within the RCV of single results but real between means of three', () => {
    const single = assessChange({ ...glucose, second: 5.6 });
    const means = assessChange({ ...glucose, second: 5.6, n1: 3, n2: 3 });
    if (single.kind !== 'verdict' || means.kind !== 'verdict') throw new Error('expected verdicts');
    expect(single.realChange).toBe(false);
    expect(means.realChange).toBe(true);
    expect(means.probabilityReal).toBeGreaterThan(0.95);
    expect(single.probabilityReal).toBeLessThan(0.95);
  });

  it('gives the results a rise or a fall must pass, in the results own unit', () => {
    const r = assessChange(glucose);
    if (r.kind !== 'verdict') throw new Error('expected a verdict');
    expect(r.riseAbove).toBeCloseTo(5.0 * (1 + r.up / 100), 10);
    expect(r.fallBelow).toBeCloseTo(5.0 * (1 + r.down / 100), 10);
    expect(r.riseAbove).toBeCloseTo(5.74, 2);
  });

  it('asks for a usable count instead of judging', () => {
    const r = assessChange({ ...glucose, n1: 0 });
    expect(r).toEqual({ kind: 'incomplete', message: RESULTS_AVERAGED_PROMPT });
  });
});

describe('probabilities in words', () => {
  it('names the confidence and the direction', () => {
    expect(probabilityInWords(0.05, 'either-direction')).toBe('95 %, either direction');
    expect(probabilityInWords(0.01, 'one-direction')).toBe('99 %, one direction');
    expect(probabilityInWords(0.001, 'either-direction')).toBe('99.9 %, either direction');
  });

  it('never rounds a probability up to certainty', () => {
    expect(formatProbabilityReal(0.96131)).toBe('96.1 %');
    expect(formatProbabilityReal(0.99996)).toBe('> 99.9 %');
  });
});
