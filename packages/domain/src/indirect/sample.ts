/**
 * The pairs of a stratum as the methods read them: log ratios y = ln(x₂/x₁) sorted once, with the
 * values and the patient of each pair carried in the same order. A bootstrap replicate is then only a
 * vector of multiplicities over these positions (patients drawn with replacement), so no replicate
 * sorts anything.
 */
import type { Pairs } from './pairing.js';

export interface PairSample {
  /** Sorted log ratios ln(x₂/x₁). */
  readonly y: Float64Array;
  readonly x1: Float64Array;
  readonly x2: Float64Array;
  readonly n: number;
  readonly patients: number;
  /** CSR index: the sorted positions of patient p are positions[start[p] … start[p+1]). */
  readonly start: Int32Array;
  readonly positions: Int32Array;
}

export function toSample(pairs: Pairs): PairSample {
  const n = pairs.x1.length;
  const raw = new Float64Array(n);
  for (let i = 0; i < n; i++) raw[i] = Math.log((pairs.x2[i] as number) / (pairs.x1[i] as number));
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (raw[a] as number) - (raw[b] as number),
  );
  const y = new Float64Array(n);
  const x1 = new Float64Array(n);
  const x2 = new Float64Array(n);
  const sortedPosition = new Int32Array(n);
  order.forEach((orig, pos) => {
    y[pos] = raw[orig] as number;
    x1[pos] = pairs.x1[orig] as number;
    x2[pos] = pairs.x2[orig] as number;
    sortedPosition[orig] = pos;
  });
  const start = new Int32Array(pairs.patients + 1);
  for (let i = 0; i < n; i++) {
    const k = (pairs.patient[i] as number) + 1;
    start[k] = (start[k] as number) + 1;
  }
  for (let p = 0; p < pairs.patients; p++) start[p + 1] = (start[p + 1] as number) + (start[p] as number);
  // pairs arrive grouped by patient, so the original index order is already the CSR order
  const positions = new Int32Array(n);
  for (let i = 0; i < n; i++) positions[i] = sortedPosition[i] as number;
  return { y, x1, x2, n, patients: pairs.patients, start, positions };
}

/**
 * One bootstrap replicate: patients drawn with replacement (a cluster bootstrap, so the pairs of one
 * patient stay together), returned as multiplicities over the sorted positions and their total.
 */
export function resampleWeights(s: PairSample, rng: () => number, into: Float64Array): number {
  into.fill(0);
  let total = 0;
  for (let k = 0; k < s.patients; k++) {
    const p = Math.floor(rng() * s.patients);
    const from = s.start[p] as number;
    const to = s.start[p + 1] as number;
    for (let j = from; j < to; j++)
      into[s.positions[j] as number] = (into[s.positions[j] as number] as number) + 1;
    total += to - from;
  }
  return total;
}
