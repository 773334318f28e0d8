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
  return rcvForMeans(cvi, cva, z, 1, 1);
}

/** The log-normal σ of one result: √(ln(1 + CVA²) + ln(1 + CVI²)), CVs as fractions (Fokkema 2006). */
export function logNormalSigma(cvi: number, cva: number): number {
  requireNonNegative(cvi, 'CVI');
  requireNonNegative(cva, 'CVA');
  return Math.sqrt(Math.log((cva / 100) ** 2 + 1) + Math.log((cvi / 100) ** 2 + 1));
}

/** How many results a mean is taken of: a whole number from 1 to MAX_RESULTS_AVERAGED. */
export const MAX_RESULTS_AVERAGED = 20;
export const RESULTS_AVERAGED_MESSAGE = `the number of results averaged must be a whole number from 1 to ${MAX_RESULTS_AVERAGED}`;

function requireCount(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > MAX_RESULTS_AVERAGED)
    throw new DomainInputError(RESULTS_AVERAGED_MESSAGE);
}

/**
 * Asymmetric RCV, %, between the mean of n₁ results and the mean of n₂ results, each from its own
 * sample (Fraser, Clin Chem Lab Med 2011;50:807-12: the variance of a mean of n results is σ²/n, so
 * the √2 of two single results becomes √(1/n₁ + 1/n₂)); log-normal as in Fokkema et al. 2006.
 * n₁ = n₂ = 1 is rcvAsymmetric.
 */
export function rcvForMeans(
  cvi: number,
  cva: number,
  z: number,
  n1: number,
  n2: number,
): { up: number; down: number } {
  requireFinite(z, 'z');
  requireCount(n1);
  requireCount(n2);
  const spread = n1 === 1 && n2 === 1 ? Math.SQRT2 : Math.sqrt(1 / n1 + 1 / n2);
  const v = z * spread * logNormalSigma(cvi, cva);
  return { up: 100 * (Math.exp(v) - 1), down: 100 * (Math.exp(-v) - 1) };
}

/**
 * The probability that a change of `change` % between the mean of n₁ and the mean of n₂ results is
 * real, not biological and analytical noise (Fraser, Biological Variation: From Principles to
 * Practice, AACC Press 2001, ch. 3: z = change / (√2·√(CVA² + CVI²)), read from the normal
 * distribution; here on the log scale of the asymmetric RCV): z = |ln(1 + change)| / (σ·√(1/n₁ + 1/n₂)).
 * A change in one stated direction: Φ(z) (0.5 for no change, as the modelling curve starts); in
 * either direction: 2Φ(z) − 1 (0 for no change). The inverse of rcvForMeans: a change equal to the
 * RCV at p has probability 1 − p.
 */
export function changeProbability(
  change: number,
  cvi: number,
  cva: number,
  n1: number,
  n2: number,
  direction: 'one-direction' | 'either-direction',
): number {
  requireFinite(change, 'change');
  requireCount(n1);
  requireCount(n2);
  if (change <= -100) throw new DomainInputError('a change must be greater than -100 %');
  const sigma = logNormalSigma(cvi, cva) * Math.sqrt(1 / n1 + 1 / n2);
  if (sigma === 0) return change !== 0 ? 1 : direction === 'one-direction' ? 0.5 : 0;
  const z = Math.abs(Math.log(1 + change / 100)) / sigma;
  const phi = normalCdf(z);
  return direction === 'one-direction' ? phi : 2 * phi - 1;
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
 * (computed from integer steps, so no float drift), with the RCV up and down at each; between means
 * of n₁ and n₂ results when given (rcvForMeans).
 */
export function rcvModellingCurve(cvi: number, cva: number, n1 = 1, n2 = 1): RcvCurvePoint[] {
  const points: RcvCurvePoint[] = [];
  for (let step = 0; step < 20; step++) {
    const fraction = (500 + step * 25) / 1000;
    const pValue = (500 - step * 25) / 1000;
    const z = normalQuantile(fraction);
    const { up, down } = rcvForMeans(cvi, cva, z, n1, n2);
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
