import { fCdf, fQuantile } from '../distributions.js';

export interface CochranResult {
  /** index of the largest variance */
  index: number;
  /** C = s²max / Σ s² */
  c: number;
  critical: number;
  /** Bonferroni bound k·P(F > F_C), capped at 1 */
  p: number;
  outlying: boolean;
}

/**
 * Cochran's C for the largest of k variances each with ν degrees of freedom (Cochran, Ann Eugen
 * 1941;11:47-52). Critical value from the F distribution: C_crit = 1/(1 + (k − 1)/F(1 − α/k; ν, ν(k − 1)))
 * (ISO 5725-2:2019, §7.3.3 and its table; Braga & Panteghini, Crit Rev Clin Lab Sci 2016;53:313-25).
 * The p-value inverts the same relation, F_C = C(k − 1)/(1 − C), p = min(1, k·P(F > F_C)). With
 * unequal ν the mean ν is used. Null with fewer than 2 variances or when all are 0.
 */
export function cochranC(variances: readonly number[], df: number, alpha: number): CochranResult | null {
  const k = variances.length;
  if (k < 2 || !(df > 0)) return null;
  const sum = variances.reduce((s, v) => s + v, 0);
  if (!(sum > 0)) return null;
  let index = 0;
  for (let i = 1; i < k; i++) if (variances[i]! > variances[index]!) index = i;
  const c = variances[index]! / sum;
  const critical = cochranCritical(k, df, alpha);
  const fC = c >= 1 ? Infinity : (c * (k - 1)) / (1 - c);
  const p = Math.min(1, k * (1 - fCdf(fC, df, df * (k - 1))));
  return { index, c, critical, p, outlying: c > critical };
}

/** C_crit = 1/(1 + (k − 1)/F(1 − α/k; ν, ν(k − 1))). */
export function cochranCritical(k: number, df: number, alpha: number): number {
  const f = fQuantile(1 - alpha / k, df, df * (k - 1));
  return 1 / (1 + (k - 1) / f);
}
