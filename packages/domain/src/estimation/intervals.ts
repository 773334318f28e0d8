import { chiSquareQuantile, fQuantile } from '../distributions.js';

/** A mean square with its degrees of freedom and its coefficient in a linear combination. */
export interface MsTerm {
  coefficient: number;
  ms: number;
  df: number;
}

/**
 * χ² interval of a variance estimated by a mean square with `df` degrees of freedom (Burdick &
 * Graybill, Confidence Intervals on Variance Components, 1992, §2.2): [df·MS/χ²(1−α/2), df·MS/χ²(α/2)].
 */
export function chiSquareVarianceInterval(ms: number, df: number, alpha: number): [number, number] {
  return [(df * ms) / chiSquareQuantile(1 - alpha / 2, df), (df * ms) / chiSquareQuantile(alpha / 2, df)];
}

/**
 * Modified large-sample interval of θ = Σ c_q·S_q (positive c) − Σ c_r·S_r (negative c): Ting, Burdick,
 * Graybill, Jeyaratnam & Lu, J Stat Comput Simul 1990;35:135-43; Burdick & Graybill 1992, §3.3
 * (Graybill & Wang 1980 for one term of each sign). G = 1 − ν/χ²(1−α/2; ν), H = ν/χ²(α/2; ν) − 1,
 * G_qr = ((F − 1)² − G_q²F² − H_r²)/F with F = F(1−α/2; ν_q, ν_r), H_qr likewise at α/2. The small
 * cross terms between two mean squares of the same sign (G*_qt, H*_ru) are left out, as Burdick &
 * Graybill allow when they are negligible; with one term of each sign (balanced designs) there are none.
 */
export function mlsInterval(terms: readonly MsTerm[], alpha: number): [number, number] {
  const a = alpha / 2;
  const pos = terms.filter((t) => t.coefficient > 0 && t.df > 0);
  const neg = terms
    .filter((t) => t.coefficient < 0 && t.df > 0)
    .map((t) => ({ ...t, coefficient: -t.coefficient }));
  const G = (df: number): number => 1 - df / chiSquareQuantile(1 - a, df);
  const H = (df: number): number => df / chiSquareQuantile(a, df) - 1;
  const theta =
    pos.reduce((s, t) => s + t.coefficient * t.ms, 0) - neg.reduce((s, t) => s + t.coefficient * t.ms, 0);
  let vl = 0;
  let vu = 0;
  for (const q of pos) {
    const cs = q.coefficient * q.ms;
    vl += G(q.df) ** 2 * cs * cs;
    vu += H(q.df) ** 2 * cs * cs;
  }
  for (const r of neg) {
    const cs = r.coefficient * r.ms;
    vl += H(r.df) ** 2 * cs * cs;
    vu += G(r.df) ** 2 * cs * cs;
  }
  for (const q of pos)
    for (const r of neg) {
      const Fhi = fQuantile(1 - a, q.df, r.df);
      const Flo = fQuantile(a, q.df, r.df);
      const Gqr = ((Fhi - 1) ** 2 - G(q.df) ** 2 * Fhi * Fhi - H(r.df) ** 2) / Fhi;
      const Hqr = ((1 - Flo) ** 2 - H(q.df) ** 2 * Flo * Flo - G(r.df) ** 2) / Flo;
      const prod = q.coefficient * q.ms * r.coefficient * r.ms;
      vl += Gqr * prod;
      vu += Hqr * prod;
    }
  return [theta - Math.sqrt(Math.max(vl, 0)), theta + Math.sqrt(Math.max(vu, 0))];
}

/** A variance (or interval of one) as a CV in %: 100·√max(v, 0)/mean. */
export const cvFromVariance = (variance: number, mean: number): number =>
  (100 * Math.sqrt(Math.max(variance, 0))) / mean;

/** Percentile of sorted values: R's default type 7 (Hyndman & Fan, Am Stat 1996;50:361-5). */
export function percentile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
