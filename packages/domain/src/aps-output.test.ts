import { describe, expect, it } from 'vitest';
import { apsForOutput, calculateAps } from './aps.js';

describe('apsForOutput (issue 27.5: never a missing CVG passed off as a measured one)', () => {
  it.each([null, 0])('CVG %s: Bias and TE are null, CVa and MAU stay', (cvg) => {
    const out = apsForOutput(5.6, cvg);
    for (const level of ['minimum', 'desirable', 'optimal'] as const) {
      expect(out[level].bias).toBeNull();
      expect(out[level].totalError).toBeNull();
      expect(out[level].imprecision).toBeCloseTo(calculateAps(5.6, 0)[level].imprecision, 10);
      expect(out[level].mau).toBeCloseTo(calculateAps(5.6, 0)[level].mau, 10);
    }
  });

  it('with a CVG it is calculateAps', () => {
    expect(apsForOutput(5.6, 7.5)).toEqual(calculateAps(5.6, 7.5));
  });
});
