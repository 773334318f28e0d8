import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rcvAsymmetric } from './rcv.js';
import { assessChange, RCV_NEEDS_CVA_MESSAGE, zForChange, type ChangeInput } from './rcv-verdict.js';

const base: ChangeInput = {
  first: 100,
  second: 110,
  cvi: 5.6,
  cva: 2,
  probability: 0.05,
  direction: 'one-direction',
};

describe('assessChange (Application of the RCV)', () => {
  it('gives no verdict while results or CVI are missing, or the first result is 0', () => {
    for (const partial of [
      { first: null },
      { second: null },
      { cvi: null },
      { first: 0 },
      { first: Number.NaN },
      { cvi: 0 },
    ]) {
      expect(assessChange({ ...base, ...partial }).kind).toBe('incomplete');
    }
  });

  it('a 0 → 5 change is never called "within the RCV"', () => {
    expect(assessChange({ ...base, first: 0, second: 5 }).kind).toBe('incomplete');
  });

  it('uses the one-sided z for one stated direction and the two-sided z for either direction', () => {
    expect(zForChange(0.05, 'one-direction')).toBeCloseTo(1.6449, 4);
    expect(zForChange(0.05, 'either-direction')).toBeCloseTo(1.96, 2);
    const one = assessChange(base);
    const either = assessChange({ ...base, direction: 'either-direction' });
    if (one.kind !== 'verdict' || either.kind !== 'verdict') throw new Error('expected verdicts');
    expect(either.up).toBeGreaterThan(one.up);
  });

  it('says an RCV is not meaningful for a probability of 0.5 or more', () => {
    expect(assessChange({ ...base, probability: 0.5 }).kind).toBe('not-meaningful');
    expect(assessChange({ ...base, probability: 0.7 }).kind).toBe('not-meaningful');
  });

  it('glucose example: CVI 5.6 %, CVA 2 %, 5.0 → 5.8 mmol/L (+16 %) is a real rise at p 0.05 one-sided', () => {
    // σ = √(ln(1+0.056²)+ln(1+0.02²)) = 0.05940; up = exp(1.6449·√2·0.05940) − 1 = +14.8 %
    const r = assessChange({ ...base, first: 5.0, second: 5.8 });
    if (r.kind !== 'verdict') throw new Error('expected a verdict');
    expect(r.up).toBeCloseTo(14.8, 1);
    expect(r.realChange).toBe(true);
  });

  it('CVA 0 gives no verdict: the RCV is without analytical variation (issue 27.4)', () => {
    // A rise that a realistic CVA (3 %) puts inside the RCV reads as beyond it with CVA 0.
    const rise = { ...base, first: 5.0, second: 5.7, cvi: 5.6 };
    const realistic = assessChange({ ...rise, cva: 3 });
    if (realistic.kind !== 'verdict') throw new Error('expected a verdict');
    expect(realistic.realChange).toBe(false);
    const r = assessChange({ ...rise, cva: 0 });
    expect(r.kind).toBe('without-cva');
    if (r.kind !== 'without-cva') return;
    expect(r.message).toBe("Enter your method's analytical CV to judge this change");
    expect(r.message).toBe(RCV_NEEDS_CVA_MESSAGE);
    expect(r.change).toBeCloseTo(14, 6);
    expect(r.up).toBeCloseTo(rcvAsymmetric(5.6, 0, zForChange(0.05, 'one-direction')).up, 10);
    expect(r.up).toBeLessThan(r.change);
  });

  it('property: a real change exactly when the % change exceeds the RCV in its direction', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0.1, max: 60, noNaN: true }),
        fc.double({ min: 0.01, max: 30, noNaN: true }),
        fc.constantFrom(0.001, 0.01, 0.025, 0.05, 0.1, 0.2),
        fc.constantFrom('one-direction' as const, 'either-direction' as const),
        (first, second, cvi, cva, probability, direction) => {
          const r = assessChange({ first, second, cvi, cva, probability, direction });
          if (r.kind !== 'verdict') return false;
          const change = ((second - first) / first) * 100;
          const { up, down } = rcvAsymmetric(cvi, cva, zForChange(probability, direction));
          const expected = change > 0 ? change > up : change < 0 ? change < down : false;
          return r.realChange === expected && (r.realChange ? Math.abs(change) > 0 : true);
        },
      ),
    );
  });
});
