import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexOfIndividuality } from './applications.js';
import { apsForOutput, calculateAps } from './aps.js';
import { DomainInputError } from './errors.js';
import { rcvAsymmetric } from './rcv.js';
import {
  APS_LEVEL_NAMES,
  desirableCva,
  NO_CVG,
  NO_CVI,
  rangeOverLimits,
  workbenchRow,
  workbenchZ,
  type WorkbenchEstimate,
} from './workbench.js';

const est = (median: number, lower: number | null, upper: number | null, ci = true): WorkbenchEstimate => ({
  median,
  lower,
  upper,
  limits: lower === null ? null : ci ? '95 % CI' : 'range',
});

describe('workbenchZ: the two-sided z of a probability that a change is real', () => {
  it.each([
    [0.95, 1.96],
    [0.99, 2.576],
    [0.9, 1.645],
  ])('%s → %s', (p, z) => expect(workbenchZ(p)).toBeCloseTo(z, 2));
  it.each([0.5, 1, 0, -1, Number.NaN, 1.5])('rejects %s', (p) =>
    expect(() => workbenchZ(p)).toThrow(DomainInputError),
  );
});

describe('workbenchRow: every number is the domain formula (worked rows)', () => {
  const cvi = est(5.6, 5.2, 6.1);
  const cvg = est(14.2, 12.0, 17.5, false);
  it.each(APS_LEVEL_NAMES)('APS at the %s level equals calculateAps', (level) => {
    const row = workbenchRow({ cvi, cvg, level, probability: 0.95, cva: null });
    const aps = calculateAps(5.6, 14.2)[level];
    expect(row.aps.imprecision.value).toBe(aps.imprecision);
    expect(row.aps.bias.value).toBe(aps.bias);
    expect(row.aps.totalError.value).toBe(aps.totalError);
    expect(row.aps.mau.value).toBe(aps.mau);
    // The range substitutes the limits: lower limits give the lower end.
    expect(row.aps.totalError.range).toEqual({
      lower: calculateAps(5.2, 12.0)[level].totalError,
      upper: calculateAps(6.1, 17.5)[level].totalError,
      limits: 'range',
    });
    expect(row.aps.imprecision.range?.lower).toBe(calculateAps(5.2, 12)[level].imprecision);
  });
  it('desirable level by hand: CVA 2.8, bias 0.25·√(5.6²+14.2²), TE, MAU 5.6', () => {
    const row = workbenchRow({ cvi, cvg, level: 'desirable', probability: 0.95, cva: null });
    expect(row.aps.imprecision.value).toBeCloseTo(2.8, 10);
    expect(row.aps.bias.value).toBeCloseTo(0.25 * Math.hypot(5.6, 14.2), 10);
    expect(row.aps.totalError.value).toBeCloseTo(0.25 * Math.hypot(5.6, 14.2) + 1.65 * 2.8, 10);
    expect(row.aps.mau.value).toBeCloseTo(5.6, 10);
  });
  it('RCV with the desirable CVA (0.5·CVI) unless a CVA is given, and says which', () => {
    const own = workbenchRow({ cvi, cvg, level: 'optimal', probability: 0.95, cva: null });
    expect(own.rcv.cvaSource).toBe('desirable');
    expect(own.rcv.cva).toBeCloseTo(2.8, 10);
    expect(desirableCva(5.6)).toBeCloseTo(2.8, 10);
    const r = rcvAsymmetric(5.6, 2.8, workbenchZ(0.95));
    expect(own.rcv.up.value).toBe(r.up);
    expect(own.rcv.down.value).toBe(r.down);
    // By hand: σ = √(ln(1+0.028²)+ln(1+0.056²)) = 0.06257; 100·(e^(1.96·√2·σ) − 1) = 18.9, down −15.9.
    expect(own.rcv.up.value).toBeCloseTo(18.94, 2);
    expect(own.rcv.down.value).toBeCloseTo(-15.92, 2);
    // The CVA stays the point's: only the CVI moves across the limits.
    expect(own.rcv.up.range).toEqual({
      lower: rcvAsymmetric(5.2, 2.8, own.z).up,
      upper: rcvAsymmetric(6.1, 2.8, own.z).up,
      limits: '95 % CI',
    });
    expect(own.rcv.down.range).toEqual({
      lower: rcvAsymmetric(6.1, 2.8, own.z).down,
      upper: rcvAsymmetric(5.2, 2.8, own.z).down,
      limits: '95 % CI',
    });
    const lab = workbenchRow({ cvi, cvg, level: 'optimal', probability: 0.99, cva: 4 });
    expect(lab.rcv).toMatchObject({ cva: 4, cvaSource: 'user' });
    expect(lab.rcv.up.value).toBe(rcvAsymmetric(5.6, 4, workbenchZ(0.99)).up);
  });
  it('II = CVI/CVG, its range from CVI low/CVG high to CVI high/CVG low', () => {
    const row = workbenchRow({ cvi, cvg, level: 'desirable', probability: 0.95, cva: null });
    expect(row.ii.value).toBe(indexOfIndividuality(5.6, 14.2));
    expect(row.ii.range).toEqual({ lower: 5.2 / 17.5, upper: 6.1 / 12.0, limits: 'range' });
  });
  it('without a CVG: bias, TE and II are missing, with why; imprecision, MAU and RCV are there', () => {
    for (const g of [null, est(0, null, null)]) {
      const row = workbenchRow({ cvi, cvg: g, level: 'desirable', probability: 0.95, cva: null });
      expect(row.aps.bias).toEqual({ value: null, range: null, why: NO_CVG });
      expect(row.aps.totalError).toEqual({ value: null, range: null, why: NO_CVG });
      expect(row.ii).toEqual({ value: null, range: null, why: NO_CVG });
      expect(row.aps.imprecision.value).toBe(apsForOutput(5.6, null).desirable.imprecision);
      expect(row.aps.mau.range).toEqual({ lower: 5.2, upper: 6.1, limits: '95 % CI' });
      expect(row.rcv.up.value).not.toBeNull();
    }
  });
  it('without a CVI nothing is computed, with why', () => {
    const row = workbenchRow({ cvi: null, cvg, level: 'desirable', probability: 0.95, cva: null });
    expect(row.aps.imprecision.why).toBe(NO_CVI);
    expect(row.rcv.up.value).toBeNull();
    expect(row.ii.why).toBe(NO_CVI);
  });
  it('without limits there is no range', () => {
    const row = workbenchRow({
      cvi: est(5, null, null),
      cvg: est(10, null, null),
      level: 'desirable',
      probability: 0.95,
      cva: null,
    });
    expect(row.aps.totalError.range).toBeNull();
    expect(row.rcv.up.range).toBeNull();
  });
  it('rejects a negative CVA', () =>
    expect(() => workbenchRow({ cvi, cvg, level: 'desirable', probability: 0.95, cva: -1 })).toThrow(
      DomainInputError,
    ));
});

describe('rangeOverLimits: properties (fast-check)', () => {
  const cv = fc.double({ min: 0.1, max: 80, noNaN: true });
  /** An estimate: lower ≤ median ≤ upper. */
  const estimate = fc
    .tuple(cv, cv, cv)
    .map(([a, b, c]) => [a, b, c].sort((x, y) => x - y) as [number, number, number]);
  const formulas: [string, (i: number, g: number) => number][] = [
    ['TE desirable', (i, g) => calculateAps(i, g).desirable.totalError],
    ['bias minimum', (i, g) => calculateAps(i, g).minimum.bias],
    ['MAU optimal', (i) => calculateAps(i, 1).optimal.mau],
    ['RCV up', (i) => rcvAsymmetric(i, 2, 1.96).up],
    ['RCV down', (i) => rcvAsymmetric(i, 2, 1.96).down],
    ['II', (i, g) => indexOfIndividuality(i, g)],
  ];

  it.each(formulas)('%s: equal to the point when the limits meet', (_n, f) =>
    fc.assert(
      fc.property(cv, cv, (i, g) => {
        const r = rangeOverLimits(f, est(i, i, i), est(g, g, g));
        expect(r?.lower).toBeCloseTo(f(i, g), 9);
        expect(r?.upper).toBeCloseTo(f(i, g), 9);
      }),
    ),
  );

  it.each(formulas)('%s: holds the point, and widens as any limit widens (monotone in each limit)', (_n, f) =>
    fc.assert(
      fc.property(
        estimate,
        estimate,
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        fc.integer({ min: 0, max: 3 }),
        ([il, im, iu], [gl, gm, gu], t, which) => {
          const base = rangeOverLimits(f, est(im, il, iu), est(gm, gl, gu))!;
          const point = f(im, gm);
          const eps = 1e-9 * Math.max(1, Math.abs(point));
          expect(base.lower).toBeLessThanOrEqual(point + eps);
          expect(base.upper).toBeGreaterThanOrEqual(point - eps);
          // Move one limit outwards: the lower one down (by t of itself), the upper one up.
          const limits = [il, iu, gl, gu];
          limits[which] = which % 2 === 0 ? limits[which]! * (1 - t) + 0.05 * t : limits[which]! * (1 + t);
          const [nil, niu, ngl, ngu] = limits as [number, number, number, number];
          const wider = rangeOverLimits(f, est(im, nil, niu), est(gm, ngl, ngu))!;
          expect(wider.lower).toBeLessThanOrEqual(base.lower + eps);
          expect(wider.upper).toBeGreaterThanOrEqual(base.upper - eps);
        },
      ),
    ),
  );

  it('labels the range by what the limits are', () => {
    const f = (i: number, g: number) => i + g;
    expect(rangeOverLimits(f, est(5, 4, 6), est(9, 8, 10))?.limits).toBe('95 % CI');
    expect(rangeOverLimits(f, est(5, 4, 6, false), est(9, 8, 10))?.limits).toBe('range');
    expect(rangeOverLimits(f, est(5, null, null), est(9, 8, 10, false))).toEqual({
      lower: 13,
      upper: 15,
      limits: 'range',
    });
    expect(rangeOverLimits(f, est(5, null, null), est(9, null, null))).toBeNull();
  });
});
