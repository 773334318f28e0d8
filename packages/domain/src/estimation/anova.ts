import { DomainInputError } from '../errors.js';

/** Results nested as subjects → samples → replicate values. */
export type NestedData = readonly (readonly (readonly number[])[])[];

export interface MeanSquare {
  ms: number;
  df: number;
}

export interface NestedAnova {
  grand_mean: number;
  between_subjects: MeanSquare;
  between_samples: MeanSquare;
  replicates: MeanSquare;
  /** Sokal–Rohlf coefficients: E(MS_samples) = σ²A + n0·σ²I; E(MS_subjects) = σ²A + n0'·σ²I + n0''·σ²G */
  n0: number;
  n0_prime: number;
  n0_double_prime: number;
  /** method-of-moments variance components, negative estimates kept as they are */
  analytical: number;
  within: number;
  between: number;
}

const mean = (v: readonly number[]): number => v.reduce((s, x) => s + x, 0) / v.length;

/**
 * The two-level nested random-effects ANOVA for unbalanced data (subjects, samples within subjects,
 * replicates within samples) by the method of moments, with the coefficients of Sokal & Rohlf,
 * Biometry, 3rd ed. 1995, Box 10.4: n0 = (N − Σᵢ Σⱼ nᵢⱼ²/nᵢ)/df_samples,
 * n0' = (Σᵢ Σⱼ nᵢⱼ²/nᵢ − Σ nᵢⱼ²/N)/df_subjects, n0'' = (N − Σ nᵢ²/N)/df_subjects.
 * Throws a DomainInputError when the design cannot separate the three components.
 */
export function nestedAnova(data: NestedData): NestedAnova {
  const subjects = data.filter((s) => s.some((sample) => sample.length > 0));
  const a = subjects.length;
  let N = 0;
  let B = 0;
  let total = 0;
  for (const s of subjects)
    for (const sample of s) {
      if (sample.length === 0) continue;
      B++;
      N += sample.length;
      for (const v of sample) total += v;
    }
  const dfA = a - 1;
  const dfB = B - a;
  const dfW = N - B;
  if (a < 2) throw new DomainInputError('At least 2 subjects are needed');
  if (dfB < 1) throw new DomainInputError('At least one subject needs 2 or more samples');
  if (dfW < 1) throw new DomainInputError('At least one sample needs 2 or more replicates');
  const grand = total / N;
  let ssA = 0;
  let ssB = 0;
  let ssW = 0;
  let s1 = 0; // Σᵢ Σⱼ nᵢⱼ²/nᵢ
  let s2 = 0; // Σ nᵢⱼ²
  let s3 = 0; // Σ nᵢ²
  for (const s of subjects) {
    const samples = s.filter((x) => x.length > 0);
    const ni = samples.reduce((acc, x) => acc + x.length, 0);
    const mi = samples.reduce((acc, x) => acc + x.reduce((t, v) => t + v, 0), 0) / ni;
    ssA += ni * (mi - grand) ** 2;
    let sumSq = 0;
    for (const sample of samples) {
      const nij = sample.length;
      const mij = mean(sample);
      ssB += nij * (mij - mi) ** 2;
      for (const v of sample) ssW += (v - mij) ** 2;
      sumSq += nij * nij;
    }
    s1 += sumSq / ni;
    s2 += sumSq;
    s3 += ni * ni;
  }
  const msA = ssA / dfA;
  const msB = ssB / dfB;
  const msW = ssW / dfW;
  const n0 = (N - s1) / dfB;
  const n0p = (s1 - s2 / N) / dfA;
  const n0pp = (N - s3 / N) / dfA;
  const within = (msB - msW) / n0;
  const between = (msA - msW - n0p * within) / n0pp;
  return {
    grand_mean: grand,
    between_subjects: { ms: msA, df: dfA },
    between_samples: { ms: msB, df: dfB },
    replicates: { ms: msW, df: dfW },
    n0,
    n0_prime: n0p,
    n0_double_prime: n0pp,
    analytical: msW,
    within,
    between,
  };
}

/** CV-ANOVA (Røraas, Støve, Petersen & Sandberg, Clin Chem 2016;62:725-36): each subject's results divided by that subject's mean. */
export function normaliseBySubjectMean(data: NestedData): number[][][] {
  return data.map((s) => {
    const all = s.flat();
    const m = all.length ? mean(all) : 1;
    return s.map((sample) => sample.map((v) => v / m));
  });
}
