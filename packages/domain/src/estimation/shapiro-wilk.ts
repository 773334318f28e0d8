import { normalCdf, normalQuantile } from '../distributions.js';

/** Polynomial c0 + c1·x + c2·x² + … (the `poly` helper of AS R94). */
function poly(c: readonly number[], x: number): number {
  let r = 0;
  for (let i = c.length - 1; i >= 0; i--) r = r * x + c[i]!;
  return r;
}

const C1 = [0, 0.221157, -0.147981, -2.07119, 4.434685, -2.706056];
const C2 = [0, 0.042981, -0.293762, -1.752461, 5.682633, -3.582633];
const C3 = [0.544, -0.39978, 0.025054, -6.714e-4];
const C4 = [1.3822, -0.77857, 0.062767, -0.0020322];
const C5 = [-1.5861, -0.31082, -0.083751, 0.0038915];
const C6 = [-0.4803, -0.082676, 0.0030302];
const G = [-2.273, 0.459];

export interface ShapiroWilkResult {
  n: number;
  w: number;
  p: number;
}

/**
 * Shapiro–Wilk W and its p-value by Royston's approximation: Royston P, "Remark AS R94: A remark on
 * algorithm AS 181: the W-test for normality", Appl Stat 1995;44:547-51 (the algorithm R's
 * shapiro.test uses; verified against R in estimation.r-fixtures.test.ts). 3 ≤ n ≤ 5000; returns
 * null for fewer than 3 values, more than 5000, or values that are all equal.
 */
export function shapiroWilk(values: readonly number[]): ShapiroWilkResult | null {
  const n = values.length;
  if (n < 3 || n > 5000) return null;
  const x = [...values].sort((a, b) => a - b);
  const range = x[n - 1]! - x[0]!;
  if (!(range > 1e-19 * Math.max(1, Math.abs(x[0]!)))) return null;
  const nn2 = Math.floor(n / 2);
  const a = new Array<number>(nn2 + 1).fill(0); // 1-based, as in the algorithm
  if (n === 3) {
    a[1] = Math.SQRT1_2;
  } else {
    const an25 = n + 0.25;
    const m = new Array<number>(nn2 + 1).fill(0);
    let summ2 = 0;
    for (let i = 1; i <= nn2; i++) {
      m[i] = normalQuantile((i - 0.375) / an25);
      summ2 += m[i]! ** 2;
    }
    summ2 *= 2;
    const ssumm2 = Math.sqrt(summ2);
    const rsn = 1 / Math.sqrt(n);
    const a1 = poly(C1, rsn) - m[1]! / ssumm2;
    let i1: number;
    let fac: number;
    if (n > 5) {
      i1 = 3;
      const a2 = -m[2]! / ssumm2 + poly(C2, rsn);
      fac = Math.sqrt((summ2 - 2 * m[1]! ** 2 - 2 * m[2]! ** 2) / (1 - 2 * a1 ** 2 - 2 * a2 ** 2));
      a[2] = a2;
    } else {
      i1 = 2;
      fac = Math.sqrt((summ2 - 2 * m[1]! ** 2) / (1 - 2 * a1 ** 2));
    }
    a[1] = a1;
    for (let i = i1; i <= nn2; i++) a[i] = -m[i]! / fac;
  }
  // W as the squared correlation of the ordered data with the antisymmetric coefficients.
  const coef = (i: number): number => {
    const j = n - 1 - i;
    if (i === j) return 0;
    return i < j ? -a[i + 1]! : a[j + 1]!;
  };
  let sx = 0;
  for (const v of x) sx += v / range;
  sx /= n;
  let ssa = 0;
  let ssx = 0;
  let sax = 0;
  for (let i = 0; i < n; i++) {
    const asa = coef(i);
    const xsx = x[i]! / range - sx;
    ssa += asa * asa;
    ssx += xsx * xsx;
    sax += asa * xsx;
  }
  const ssassx = Math.sqrt(ssa * ssx);
  const w1 = ((ssassx - sax) * (ssassx + sax)) / (ssa * ssx);
  const w = 1 - w1;
  if (n === 3) {
    const pw = (6 / Math.PI) * (Math.asin(Math.sqrt(w)) - Math.PI / 3);
    return { n, w, p: Math.min(1, Math.max(0, pw)) };
  }
  let y = Math.log(w1);
  const lxx = Math.log(n);
  let mean: number;
  let sd: number;
  if (n <= 11) {
    const gamma = poly(G, n);
    if (y >= gamma) return { n, w, p: 1e-99 };
    y = -Math.log(gamma - y);
    mean = poly(C3, n);
    sd = Math.exp(poly(C4, n));
  } else {
    mean = poly(C5, lxx);
    sd = Math.exp(poly(C6, lxx));
  }
  return { n, w, p: normalCdf((mean - y) / sd) };
}
