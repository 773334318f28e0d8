/**
 * Weighted median, interpolated, as R's matrixStats::weightedMedian (ties = "weighted" default,
 * interpolate = TRUE), the rule of the metacalculation service: when some weights are infinite, only
 * those values count, with equal weights; drop zero (and negative, NaN) weights; sort the values;
 * normalise the weights; centred cumulative weight c_i = (w_1 + … + w_i) − w_i / 2; k = first index
 * with c_k ≥ 0.5; the result is x_1 when k is the first, else
 * x_k + (0.5 − c_k)·(x_k − x_(k−1)) / (c_k − c_(k−1)).
 */
export function weightedMedian(values: readonly number[], weights: readonly number[]): number | null {
  if (values.length !== weights.length) throw new RangeError('values and weights differ in length');
  const pairs: [number, number][] = [];
  const infinite = weights.some((w, i) => w === Infinity && Number.isFinite(values[i]));
  for (let i = 0; i < values.length; i++) {
    const w = weights[i]!;
    const x = values[i]!;
    if (!Number.isFinite(x)) continue;
    if (infinite) {
      if (w === Infinity) pairs.push([x, 1]);
    } else if (w > 0 && Number.isFinite(w)) pairs.push([x, w]);
  }
  if (pairs.length === 0) return null;
  pairs.sort((a, b) => a[0] - b[0]);
  const xs = new Float64Array(pairs.length);
  const ws = new Float64Array(pairs.length);
  pairs.forEach(([x, w], i) => {
    xs[i] = x;
    ws[i] = w;
  });
  return weightedMedianSorted(xs, ws, pairs.length);
}

/** The same rule on values already sorted ascending with positive weights (the bootstrap's hot path). */
export function weightedMedianSorted(xs: ArrayLike<number>, ws: ArrayLike<number>, n: number): number {
  let total = 0;
  for (let i = 0; i < n; i++) total += ws[i]!;
  let cum = 0;
  let prevC = 0;
  for (let i = 0; i < n; i++) {
    const w = ws[i]! / total;
    const c = cum + w / 2;
    if (c >= 0.5) {
      if (i === 0) return xs[0]!;
      return xs[i]! + ((0.5 - c) * (xs[i]! - xs[i - 1]!)) / (c - prevC);
    }
    cum += w;
    prevC = c;
  }
  return xs[n - 1]!;
}
