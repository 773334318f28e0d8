// Distribution functions for the calculators, the Røraas CI and the estimation engine, from the
// stdlib project's distribution packages (https://stdlib.io; Cephes-derived incomplete beta and gamma
// functions, Wichura AS 241 for the normal quantile). They replaced hand-written Numerical Recipes
// code that gave the same values to 1e-12 relative or better (decision 050; distributions.test.ts).
import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import chisquareQuantile from '@stdlib/stats-base-dists-chisquare-quantile';
import fCdfImpl from '@stdlib/stats-base-dists-f-cdf';
import fQuantileImpl from '@stdlib/stats-base-dists-f-quantile';
import normalCdfImpl from '@stdlib/stats-base-dists-normal-cdf';
import normalQuantileImpl from '@stdlib/stats-base-dists-normal-quantile';
import tCdfImpl from '@stdlib/stats-base-dists-t-cdf';
import tQuantileImpl from '@stdlib/stats-base-dists-t-quantile';

/** Standard normal CDF Φ(z). */
export function normalCdf(z: number): number {
  return normalCdfImpl(z, 0, 1);
}

/** Standard normal quantile Φ⁻¹(p). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError('p must be between 0 and 1');
  return normalQuantileImpl(p, 0, 1);
}

/** CDF of the chi-square distribution with `df` degrees of freedom. */
export function chiSquareCdf(x: number, df: number): number {
  return chisquareCdf(x, df);
}

/** Quantile of the chi-square distribution with `df` degrees of freedom. */
export function chiSquareQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) throw new RangeError('invalid chi-square quantile arguments');
  return chisquareQuantile(p, df);
}

/** CDF of the F distribution with (d1, d2) degrees of freedom. */
export function fCdf(x: number, d1: number, d2: number): number {
  return fCdfImpl(x, d1, d2);
}

/** Quantile of the F distribution with (d1, d2) degrees of freedom. */
export function fQuantile(p: number, d1: number, d2: number): number {
  if (!(p > 0 && p < 1) || !(d1 > 0) || !(d2 > 0)) throw new RangeError('invalid F quantile arguments');
  return fQuantileImpl(p, d1, d2);
}

/** CDF of Student's t with `df` degrees of freedom. */
export function tCdf(x: number, df: number): number {
  return tCdfImpl(x, df);
}

/** Quantile of Student's t with `df` degrees of freedom. */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) throw new RangeError('invalid t quantile arguments');
  return tQuantileImpl(p, df);
}
