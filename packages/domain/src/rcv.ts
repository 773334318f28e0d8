import { normalCdf, normalQuantile } from './distributions.js';
import { DomainInputError, requireFinite, requireNonNegative } from './errors.js';
import { roundHalfUp } from './rounding.js';

export const Z_BOUND = 6;
export const Z_RANGE_MESSAGE = 'z-value must be between -6 and 6';
export const PROBABILITY_RANGE_MESSAGE = 'probability must be between 0 and 1';

/** Symmetric RCV, % (Harris & Yasaka, Clin Chem 1983;29:25-30): z·√2·√(CVA² + CVI²). */
export function rcvSymmetric(cvi: number, cva: number, z: number): number {
  requireNonNegative(cvi, 'CVI');
  requireNonNegative(cva, 'CVA');
  requireFinite(z, 'z');
  return z * Math.SQRT2 * Math.sqrt(cva * cva + cvi * cvi);
}

/**
 * Asymmetric (log-normal) RCV, % (Fokkema et al., Clin Chem 2006;52:1602-3):
 * σ = √(ln(1 + CVA²) + ln(1 + CVI²)) with CVs as fractions; up = 100·(exp(z·√2·σ) − 1),
 * down = 100·(exp(−z·√2·σ) − 1).
 */
export function rcvAsymmetric(cvi: number, cva: number, z: number): { up: number; down: number } {
  requireNonNegative(cvi, 'CVI');
  requireNonNegative(cva, 'CVA');
  requireFinite(z, 'z');
  const sigma = Math.sqrt(Math.log((cva / 100) ** 2 + 1) + Math.log((cvi / 100) ** 2 + 1));
  const v = z * Math.SQRT2 * sigma;
  return { up: 100 * (Math.exp(v) - 1), down: 100 * (Math.exp(-v) - 1) };
}

/** z for a (one-sided, upper-tail) probability: the inverse normal of 1 − p, bounded to ±6 (spec §5). */
export function zFromProbability(p: number): number {
  if (!Number.isFinite(p) || p <= 0 || p >= 1) throw new DomainInputError(PROBABILITY_RANGE_MESSAGE);
  const z = normalQuantile(1 - p);
  if (z < -Z_BOUND || z > Z_BOUND) throw new DomainInputError(Z_RANGE_MESSAGE);
  return z;
}

/** The one-sided upper-tail probability of z, 1 − Φ(z); z must lie within ±6. */
export function probabilityFromZ(z: number): number {
  if (!Number.isFinite(z) || z < -Z_BOUND || z > Z_BOUND) throw new DomainInputError(Z_RANGE_MESSAGE);
  return 1 - normalCdf(z);
}

export interface RcvCurvePoint {
  /** probability that a change is real (0.5 … < 1) */
  fraction: number;
  /** 1 − fraction */
  pValue: number;
  z: number;
  up: number;
  down: number;
}

/**
 * The modelling curve of spec section 9: probabilities from 0.5 to just under 1 in steps of 0.025
 * (computed from integer steps, so no float drift), with the RCV up and down at each.
 */
export function rcvModellingCurve(cvi: number, cva: number): RcvCurvePoint[] {
  const points: RcvCurvePoint[] = [];
  for (let step = 0; step < 20; step++) {
    const fraction = (500 + step * 25) / 1000;
    const pValue = (500 - step * 25) / 1000;
    const z = normalQuantile(fraction);
    const { up, down } = rcvAsymmetric(cvi, cva, z);
    points.push({ fraction, pValue, z, up, down });
  }
  return points;
}

/** One-sided probabilities of the z / p-value table of spec section 9. */
const Z_TABLE_ONE_SIDED = [0.05, 0.025, 0.01, 0.005, 0.0025, 0.001] as const;

/** A probability as the table writes it: no binary noise (2 × 0.0025 → "0.005"), at least 2 decimals. */
function probabilityText(p: number): string {
  const text = String(Number(p.toPrecision(6)));
  return /^\d\.\d$/.test(text) ? `${text}0` : text;
}

/**
 * The z / p-value table of spec section 9, computed from the same quantile function the calculators
 * use, so the table and a calculation for the same p agree (z rounded half up to 2 decimals: 2.33 and
 * 2.58; the spec's printed 2.32, 2.57 and "3.09 ↔ 0.0001" are typos, see docs/decisions).
 */
export const Z_VALUE_TABLE = Z_TABLE_ONE_SIDED.map((p) => ({
  z: roundHalfUp(zFromProbability(p), 2),
  oneSided: probabilityText(p),
  twoSided: probabilityText(2 * p),
}));

/** Percent change from the first to the second result; 0 when the first is 0 (spec section 5). */
export function percentChange(first: number, second: number): number {
  if (!Number.isFinite(first) || !Number.isFinite(second) || first === 0) return 0;
  return ((second - first) / first) * 100;
}
