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
  /** The patient (0…patients−1) of each sorted position. */
  readonly patientOf: Int32Array;
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
  order.forEach((orig, pos) => {
    y[pos] = raw[orig] as number;
    x1[pos] = pairs.x1[orig] as number;
    x2[pos] = pairs.x2[orig] as number;
  });
  const patientOf = new Int32Array(n);
  order.forEach((orig, pos) => {
    patientOf[pos] = pairs.patient[orig] as number;
  });
  return { y, x1, x2, n, patients: pairs.patients, patientOf };
}

/**
 * One bootstrap replicate: patients drawn with replacement (a cluster bootstrap, so the pairs of one
 * patient stay together), as the number of times each patient was drawn; a pair's multiplicity is
 * its patient's (see weighDrawn).
 */
export function drawPatients(s: PairSample, rng: () => number, drawn: Int32Array): void {
  drawn.fill(0);
  for (let k = 0; k < s.patients; k++) {
    const p = Math.floor(rng() * s.patients);
    drawn[p] = (drawn[p] as number) + 1;
  }
}
