/**
 * Small numeric helpers for the indirect methods: weighted order statistics on sorted log ratios
 * (so a bootstrap replicate is a vector of multiplicities, never a re-sort) and a Nelder–Mead
 * minimiser. Pure and allocation-light: they run 500 times per method in a
 * bootstrap over up to a million pairs.
 */
/** The standard normal density. */
export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
}

/**
 * The p-quantile of sorted values `y` each repeated w[i] times (R's type 7 on the expanded sample:
 * h = (N − 1)·p, interpolate between the ⌊h⌋-th and ⌈h⌉-th values, 0-based). w = null: weight 1.
 */
export function weightedQuantile(y: Float64Array, w: Float64Array | null, total: number, p: number): number {
  const h = (total - 1) * p;
  const lo = Math.floor(h);
  const frac = h - lo;
  if (w === null) {
    const a = y[lo] ?? NaN;
    const b = y[Math.min(lo + 1, total - 1)] ?? a;
    return a + frac * (b - a);
  }
  let cum = 0;
  let a = NaN;
  for (let i = 0; i < y.length; i++) {
    const wi = w[i] ?? 0;
    if (wi === 0) continue;
    const next = cum + wi;
    if (Number.isNaN(a) && lo < next) {
      a = y[i] ?? NaN;
      if (frac === 0) return a;
      if (lo + 1 < next) return a;
      // the (lo + 1)-th value is the next one with a weight
      for (let j = i + 1; j < y.length; j++) {
        if ((w[j] ?? 0) > 0) return a + frac * ((y[j] ?? a) - a);
      }
      return a;
    }
    cum = next;
  }
  return a;
}

/** Weighted count, mean and (n − 1) SD of the values y[i] with lo ≤ y[i] ≤ hi. */
export function weightedMoments(
  y: Float64Array,
  w: Float64Array | null,
  lo: number,
  hi: number,
): { n: number; mean: number; sd: number } {
  let n = 0;
  let s = 0;
  for (let i = 0; i < y.length; i++) {
    const v = y[i] ?? 0;
    if (v < lo || v > hi) continue;
    const wi = w === null ? 1 : (w[i] ?? 0);
    n += wi;
    s += wi * v;
  }
  const mean = n > 0 ? s / n : NaN;
  let ss = 0;
  for (let i = 0; i < y.length; i++) {
    const v = y[i] ?? 0;
    if (v < lo || v > hi) continue;
    const wi = w === null ? 1 : (w[i] ?? 0);
    ss += wi * (v - mean) * (v - mean);
  }
  return { n, mean, sd: n > 1 ? Math.sqrt(ss / (n - 1)) : NaN };
}

/**
 * Nelder–Mead simplex minimiser (Nelder & Mead, Comput J 1965;7:308-13; the standard coefficients
 * 1, 2, 0.5, 0.5 as in R's optim). Returns the best point found.
 */
export function nelderMead(
  f: (x: readonly number[]) => number,
  start: readonly number[],
  step: readonly number[],
  maxEvaluations = 400,
  tolerance = 1e-9,
): { x: number[]; value: number } {
  const n = start.length;
  const simplex: number[][] = [start.slice()];
  for (let i = 0; i < n; i++) {
    const p = start.slice();
    p[i] = (p[i] ?? 0) + (step[i] ?? 0.1);
    simplex.push(p);
  }
  let values = simplex.map((p) => f(p));
  let evaluations = n + 1;
  while (evaluations < maxEvaluations) {
    const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
    const sorted = order.map(([, i]) => simplex[i] as number[]);
    values = order.map(([v]) => v);
    simplex.splice(0, simplex.length, ...sorted);
    const best = values[0] as number;
    const worst = values[n] as number;
    if (Math.abs(worst - best) <= tolerance * (Math.abs(best) + tolerance)) break;
    const centroid = new Array<number>(n).fill(0);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) centroid[j] = (centroid[j] ?? 0) + (simplex[i]?.[j] ?? 0) / n;
    const worstPoint = simplex[n] as number[];
    const along = (t: number) => centroid.map((c, j) => c + t * (c - (worstPoint[j] ?? 0)));
    const reflected = along(1);
    const fr = f(reflected);
    evaluations++;
    if (fr < best) {
      const expanded = along(2);
      const fe = f(expanded);
      evaluations++;
      if (fe < fr) {
        simplex[n] = expanded;
        values[n] = fe;
      } else {
        simplex[n] = reflected;
        values[n] = fr;
      }
    } else if (fr < (values[n - 1] as number)) {
      simplex[n] = reflected;
      values[n] = fr;
    } else {
      const contracted = fr < worst ? along(0.5) : along(-0.5);
      const fc = f(contracted);
      evaluations++;
      if (fc < Math.min(fr, worst)) {
        simplex[n] = contracted;
        values[n] = fc;
      } else {
        const bestPoint = simplex[0] as number[];
        for (let i = 1; i <= n; i++) {
          const p = simplex[i] as number[];
          simplex[i] = p.map((v, j) => (bestPoint[j] ?? 0) + 0.5 * (v - (bestPoint[j] ?? 0)));
          values[i] = f(simplex[i] as number[]);
          evaluations++;
        }
      }
    }
  }
  let bestIndex = 0;
  for (let i = 1; i < values.length; i++)
    if ((values[i] as number) < (values[bestIndex] as number)) bestIndex = i;
  return { x: simplex[bestIndex] as number[], value: values[bestIndex] as number };
}
