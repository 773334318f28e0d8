import { chiSquareCdf, tCdf, tQuantile } from '../distributions.js';
import { cochranC } from './cochran.js';
import { shapiroWilk, type ShapiroWilkResult } from './shapiro-wilk.js';

const mean = (v: readonly number[]): number => v.reduce((s, x) => s + x, 0) / v.length;
const variance = (v: readonly number[]): number => {
  const m = mean(v);
  return v.reduce((s, x) => s + (x - m) ** 2, 0) / (v.length - 1);
};

export interface SteadyState {
  /** number of time points regressed */
  points: number;
  slope: number;
  slope_ci: [number, number];
  /** slope as % of the grand mean per sample */
  slope_percent: number;
  p: number;
  /** the 95 % (1 − α) CI of the slope includes 0 */
  steady: boolean;
}

/**
 * Steady state: least-squares regression of the mean result at each sample (time point, across
 * subjects) on the sample number, with the t interval of the slope (Braga & Panteghini, Crit Rev Clin
 * Lab Sci 2016;53:313-25; Aarsand et al., Clin Chem 2018;64:501-14). Null with fewer than 3 time points.
 */
export function steadyState(
  sampleMeans: readonly number[],
  grandMean: number,
  alpha: number,
): SteadyState | null {
  const m = sampleMeans.length;
  if (m < 3) return null;
  const xs = sampleMeans.map((_, i) => i + 1);
  const mx = mean(xs);
  const my = mean(sampleMeans);
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < m; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (sampleMeans[i]! - my);
  }
  const slope = sxy / sxx;
  let sse = 0;
  for (let i = 0; i < m; i++) sse += (sampleMeans[i]! - (my + slope * (xs[i]! - mx))) ** 2;
  const se = Math.sqrt(sse / (m - 2) / sxx);
  const t = tQuantile(1 - alpha / 2, m - 2);
  const p = se > 0 ? 2 * (1 - tCdf(Math.abs(slope / se), m - 2)) : slope === 0 ? 1 : 0;
  const slope_ci: [number, number] = [slope - t * se, slope + t * se];
  return {
    points: m,
    slope,
    slope_ci,
    slope_percent: (100 * slope) / grandMean,
    p,
    steady: slope_ci[0] <= 0 && slope_ci[1] >= 0,
  };
}

export interface NormalityCheck {
  /** Shapiro–Wilk on each subject's sample means (subjects with 3 or more samples) */
  per_subject: { tested: number; passing: number; share_passing: number | null };
  per_subject_log: { tested: number; passing: number; share_passing: number | null };
  subject_means: ShapiroWilkResult | null;
  subject_means_log: ShapiroWilkResult | null;
  /**
   * The scale the results imply: "untransformed" when the subject means pass Shapiro–Wilk, else "log"
   * when their logarithms do, else "cv_anova" (Røraas et al., Clin Chem 2016;62:725-36).
   */
  scale: 'untransformed' | 'log' | 'cv_anova';
}

function perSubject(sets: readonly (readonly number[])[], alpha: number): NormalityCheck['per_subject'] {
  let tested = 0;
  let passing = 0;
  for (const s of sets) {
    const r = shapiroWilk(s);
    if (!r) continue;
    tested++;
    if (r.p >= alpha) passing++;
  }
  return { tested, passing, share_passing: tested ? passing / tested : null };
}

/**
 * Normality by Shapiro–Wilk (Shapiro & Wilk, Biometrika 1965;52:591-611; Royston AS R94), per subject
 * on the sample means and on the subject means, untransformed and log-transformed (Braga &
 * Panteghini 2016). Logarithms only when every value is positive.
 */
export function normality(
  sampleMeansBySubject: readonly (readonly number[])[],
  alpha: number,
): NormalityCheck {
  const positive = sampleMeansBySubject.every((s) => s.every((v) => v > 0));
  const logs = positive ? sampleMeansBySubject.map((s) => s.map(Math.log)) : [];
  const subjectMeans = sampleMeansBySubject.map(mean);
  const sm = shapiroWilk(subjectMeans);
  const smLog = positive ? shapiroWilk(subjectMeans.map(Math.log)) : null;
  const scale = sm && sm.p >= alpha ? 'untransformed' : smLog && smLog.p >= alpha ? 'log' : 'cv_anova';
  return {
    per_subject: perSubject(sampleMeansBySubject, alpha),
    per_subject_log: perSubject(logs, alpha),
    subject_means: sm,
    subject_means_log: smLog,
    scale,
  };
}

export interface BartlettResult {
  k_squared: number;
  df: number;
  p: number;
}

/**
 * Bartlett's test of homogeneity of variances (Bartlett, Proc R Soc A 1937;160:268-82; the statistic of
 * R's bartlett.test): K² = [(N − k)·ln s²p − Σ(nᵢ − 1)·ln s²ᵢ] / [1 + (Σ 1/(nᵢ − 1) − 1/(N − k))/(3(k − 1))],
 * χ² with k − 1 df. Null with fewer than 2 groups of 2 or more, or a zero variance.
 */
export function bartlett(groups: readonly (readonly number[])[]): BartlettResult | null {
  const g = groups.filter((x) => x.length >= 2);
  const k = g.length;
  if (k < 2) return null;
  const dfs = g.map((x) => x.length - 1);
  const vars = g.map(variance);
  if (vars.some((v) => !(v > 0))) return null;
  const dfTotal = dfs.reduce((s, d) => s + d, 0);
  const pooled = dfs.reduce((s, d, i) => s + d * vars[i]!, 0) / dfTotal;
  const num = dfTotal * Math.log(pooled) - dfs.reduce((s, d, i) => s + d * Math.log(vars[i]!), 0);
  const den = 1 + (dfs.reduce((s, d) => s + 1 / d, 0) - 1 / dfTotal) / (3 * (k - 1));
  const k2 = num / den;
  return { k_squared: k2, df: k - 1, p: 1 - chiSquareCdf(k2, k - 1) };
}

export interface HomogeneityCheck {
  bartlett: BartlettResult | null;
  cochran: { c: number; critical: number; p: number; subject: string; homogeneous: boolean } | null;
}

/** Homogeneity of the within-subject variances (of each subject's sample means): Bartlett and Cochran's C. */
export function homogeneity(
  sampleMeansBySubject: readonly (readonly number[])[],
  subjects: readonly string[],
  alpha: number,
): HomogeneityCheck {
  const idx = sampleMeansBySubject.map((s, i) => (s.length >= 2 ? i : -1)).filter((i) => i >= 0);
  const vars = idx.map((i) => variance(sampleMeansBySubject[i]!));
  const df = mean(idx.map((i) => sampleMeansBySubject[i]!.length - 1));
  const c = idx.length >= 2 ? cochranC(vars, df, alpha) : null;
  return {
    bartlett: bartlett(sampleMeansBySubject),
    cochran: c
      ? { c: c.c, critical: c.critical, p: c.p, subject: subjects[idx[c.index]!]!, homogeneous: !c.outlying }
      : null,
  };
}
