/**
 * The indirect estimators of CV_total from consecutive-result pairs (docs/domain/indirect-bv.md
 * gives each one's steps and sources). Each reads a PairSample with optional bootstrap weights and
 * answers CV_total (%, of one result: within-subject and analytical together), the pairs it used, its
 * exclusion steps and a model of the log ratio ln(x₂/x₁) (CDF and quantile) for the histogram and
 * the model RCV.
 *
 * Throughout: if one result is x·exp(ε), ε ~ N(0, s²), the log ratio of two results is N(0, 2s²), so
 * s = SD(log ratio)/√2 and CV_total = 100·√(exp(s²) − 1) (the log-normal CV).
 */
import { normalCdf, normalQuantile } from '../distributions.js';
import { binCountsOf, fastNormalCdf, momentsOf, nelderMead, quantileOf, type Weighted } from './stats.js';
import type { ExclusionStep } from './types.js';

export interface CoreFit {
  readonly cvTotal: number;
  readonly pairsUsed: number;
  readonly steps: readonly ExclusionStep[];
  /** The fitted model of the log ratio: CDF and quantile. */
  readonly cdf: (y: number) => number;
  readonly quantile: (p: number) => number;
  /** The log-ratio range whose pairs the model was fitted to (±Infinity for all). */
  readonly region: { readonly lo: number; readonly hi: number };
  /** The central peak's fitted model, where its bootstrap replicates start. */
  readonly model?: BoxCoxNormal;
}

/** An estimator reads the weighted sorted log ratios; `quick` (a bootstrap replicate) = the data's fit. */
export type CoreEstimator = (v: Weighted, quick?: CoreFit) => CoreFit;

/** CV_total, %, of one result from the SD of log ratios of two results. */
export function cvTotalFromLogRatioSd(sd: number): number {
  const s2 = (sd * sd) / 2;
  return 100 * Math.sqrt(Math.expm1(s2));
}

function normalModel(mu: number, sigma: number): Pick<CoreFit, 'cdf' | 'quantile'> {
  // no spread (every kept log ratio equal): a point mass
  if (!(sigma > 0)) return { cdf: (y) => (y >= mu ? 1 : 0), quantile: () => mu };
  return {
    cdf: (y) => normalCdf((y - mu) / sigma),
    quantile: (p) => mu + sigma * normalQuantile(p),
  };
}

export const TUKEY_STEP = "Tukey's fences on the log ratios";

/** Tukey's fences (Tukey, Exploratory Data Analysis, 1977): [Q1 − 1.5·IQR, Q3 + 1.5·IQR]. */
export function tukeyFences(v: Weighted): { lo: number; hi: number } {
  const q1 = quantileOf(v, 0.25);
  const q3 = quantileOf(v, 0.75);
  const iqr = q3 - q1;
  // IQR 0 (half the log ratios equal, coarse results): fences at one point would keep only those
  // and report no variation at all; then nothing is excluded (TUKEY_SKIPPED_STEP)
  if (!(iqr > 0)) return { lo: -Infinity, hi: Infinity };
  return { lo: q1 - 1.5 * iqr, hi: q3 + 1.5 * iqr };
}

export const TUKEY_SKIPPED_STEP =
  "Tukey's fences not applied: half or more of the log ratios are equal (IQR 0)";

/**
 * Tukey's fences lie 0.6745 + 2·1.349 = 2.698 SDs from the centre of a normal sample, so the SD of
 * what they keep is the SD of a normal truncated at ±2.698σ: σ·√(1 − 2cφ(c)/(2Φ(c) − 1)) = 0.97111σ
 * (Johnson, Kotz & Balakrishnan, Continuous Univariate Distributions 1, 2nd ed., §13.10). Dividing by
 * this makes the kept SD estimate σ again when the central part is normal.
 */
export const TUKEY_CONSISTENCY = (() => {
  const c = normalQuantile(0.75) * 4; // Q3 + 1.5·IQR = 0.6745σ + 1.5·1.349σ = 4·0.6745σ
  const phi = Math.exp(-0.5 * c * c) / Math.sqrt(2 * Math.PI);
  return Math.sqrt(1 - (2 * c * phi) / (2 * normalCdf(c) - 1));
})();

function resultRatio(v: Weighted, consistent: boolean): CoreFit {
  const total = v.total;
  const f = tukeyFences(v);
  const m = momentsOf(v, f.lo, f.hi);
  // the factor undoes the fences' trimming, so only where fences were applied
  const sd = consistent && f.lo !== -Infinity ? m.sd / TUKEY_CONSISTENCY : m.sd;
  return {
    cvTotal: cvTotalFromLogRatioSd(sd),
    pairsUsed: m.n,
    steps: [
      {
        step: f.lo === -Infinity ? TUKEY_SKIPPED_STEP : TUKEY_STEP,
        removed: total - m.n,
        remaining: m.n,
      },
    ],
    ...normalModel(m.mean, sd),
    region: f,
  };
}

/**
 * The result ratio with Tukey's exclusion as published (Jones GRD, Clin Chem 2019;65:579-88 for the
 * ratios of consecutive results; Tan RZ et al., Clin Chem Lab Med 2022;60:636-44, "result ratio with
 * Tukey"): one pass of Tukey's fences on the log ratios, then the SD of those kept. Used by the
 * simulation study to stand for the published method.
 */
export const resultRatioTukeyPlain: CoreEstimator = (v) => resultRatio(v, false);

/**
 * bvdb's result ratio: the same, with the kept SD divided by TUKEY_CONSISTENCY so that clean
 * log-normal data give CV_total without the 2.9 % the fences trim off (and an interval that covers).
 * With a first-result range (the reference interval) it is the modified method of Tan et al. 2022.
 */
export const resultRatioTukey: CoreEstimator = (v) => resultRatio(v, true);

/**
 * Expected mean squares (Tan et al. 2022; the one-way ANOVA of Fraser & Harris, Crit Rev Clin Lab
 * Sci 1989;27:409-37, on ln values as in Røraas et al., Clin Chem 2016;62:725-36): each patient's pair
 * is a group of two, and the within-group mean square of the ln values, MS_W = Σ(ln x₂ − ln x₁)²/(2n),
 * has expectation σ²_I + σ²_A (ln scale); CV_total = 100·√(exp(MS_W) − 1). No exclusion: every pair
 * counts.
 */
export const expectedMeanSquares: CoreEstimator = (v) => {
  const total = v.total;
  // Σ w·y² and Σ w·y from the shifted prefix sums
  const n = v.y.length;
  const s1 = v.S1[n] as number;
  const s2 = v.S2[n] as number;
  const ss = s2 + 2 * v.shift * s1 + total * v.shift * v.shift;
  const sumY = s1 + total * v.shift;
  const msW = ss / (2 * total);
  return {
    cvTotal: 100 * Math.sqrt(Math.expm1(msW)),
    pairsUsed: total,
    steps: [{ step: 'none (all pairs)', removed: 0, remaining: total }],
    // the model: log ratios N(mean log ratio, 2·MS_W)
    ...normalModel(sumY / total, Math.sqrt(2 * msW)),
    region: { lo: -Infinity, hi: Infinity },
  };
};

// ---------------------------------------------------------------------------------------------
// Central-peak fit: a Box–Cox-normal model fitted to the central part of the ratio distribution.

/** Box–Cox of a ratio r > 0 (Box & Cox, J R Stat Soc B 1964;26:211-52), from its log ln r. */
function boxCoxFromLog(logR: number, lambda: number): number {
  return Math.abs(lambda) < 1e-6 ? logR : Math.expm1(lambda * logR) / lambda;
}

/** The log ratio whose Box–Cox value is t (−Infinity below the transform's range). */
function logFromBoxCox(t: number, lambda: number): number {
  if (Math.abs(lambda) < 1e-6) return t;
  const u = lambda * t + 1;
  if (u <= 0) return lambda > 0 ? -Infinity : Infinity;
  return Math.log(u) / lambda;
}

export interface BoxCoxNormal {
  readonly lambda: number;
  readonly mu: number;
  readonly sigma: number;
}

/** CDF of the log ratio under a Box–Cox-normal model of the ratio. */
export function boxCoxCdf(m: BoxCoxNormal, y: number): number {
  if (y === -Infinity) return 0;
  if (y === Infinity) return 1;
  return normalCdf((boxCoxFromLog(y, m.lambda) - m.mu) / m.sigma);
}

export function boxCoxQuantile(m: BoxCoxNormal, p: number): number {
  return logFromBoxCox(m.mu + m.sigma * normalQuantile(p), m.lambda);
}

/** How wide the central region is: the model's μ ± CENTRAL_Z·σ on the Box–Cox scale. */
export const CENTRAL_Z = 2;
export const CENTRAL_BINS = 60;
export const CENTRAL_STEP = 'outside the central peak';

/**
 * Maximum likelihood of the Box–Cox-normal truncated to [lo, hi] on binned data: the multinomial
 * log-likelihood Σ n_b·ln(P_b / P[lo, hi]). Parameters (λ, μ, ln σ), λ kept within ±3.
 */
export function fitTruncatedBoxCox(
  counts: Float64Array,
  lo: number,
  hi: number,
  start: BoxCoxNormal,
  maxEvaluations: number,
  restart = true,
): BoxCoxNormal {
  const bins = counts.length;
  const width = (hi - lo) / bins;
  const edges = new Float64Array(bins + 1);
  for (let b = 0; b <= bins; b++) edges[b] = lo + b * width;
  const cdfs = new Float64Array(bins + 1);
  const negLogLik = (x: readonly number[]): number => {
    const lambda = x[0] as number;
    const mu = x[1] as number;
    const sigma = Math.exp(x[2] as number);
    if (Math.abs(lambda) > 3 || !Number.isFinite(sigma) || sigma <= 0) return 1e300;
    for (let b = 0; b <= bins; b++)
      cdfs[b] = fastNormalCdf((boxCoxFromLog(edges[b] as number, lambda) - mu) / sigma);
    const mass = (cdfs[bins] as number) - (cdfs[0] as number);
    if (!(mass > 0)) return 1e300;
    let ll = 0;
    let n = 0;
    for (let b = 0; b < bins; b++) {
      const c = counts[b] as number;
      if (c === 0) continue;
      const p = Math.max((cdfs[b + 1] as number) - (cdfs[b] as number), 1e-300);
      ll += c * Math.log(p);
      n += c;
    }
    return -(ll - n * Math.log(mass));
  };
  const scale = Math.max(start.sigma, 1e-6);
  // a cold start explores λ widely; a warm start (restart = false: a bootstrap replicate starting
  // from the data's fit) takes small first steps
  const spread = restart ? 1 : 0.25;
  let best = nelderMead(
    negLogLik,
    [start.lambda, start.mu, Math.log(scale)],
    [0.5 * spread, 0.2 * scale * spread, 0.2 * spread],
    maxEvaluations,
  );
  // one restart from the optimum with a fresh simplex: Nelder–Mead can stall on the flat λ direction
  if (restart) {
    const s2 = Math.exp(best.x[2] as number);
    best = nelderMead(negLogLik, best.x, [0.1, 0.05 * s2, 0.05], maxEvaluations);
  }
  return { lambda: best.x[0] as number, mu: best.x[1] as number, sigma: Math.exp(best.x[2] as number) };
}

function centralRegion(m: BoxCoxNormal): { lo: number; hi: number } {
  return {
    lo: logFromBoxCox(m.mu - CENTRAL_Z * m.sigma, m.lambda),
    hi: logFromBoxCox(m.mu + CENTRAL_Z * m.sigma, m.lambda),
  };
}

/**
 * Central-peak fit (the idea of refineR, Ammer T et al., Sci Rep 2021;11:16023, for reference
 * intervals, applied to result ratios by Røys EÅ et al., Clin Chem Lab Med 2024): the ratios' central
 * peak is modelled as a Box–Cox-normal distribution fitted by truncated maximum likelihood to the
 * pairs inside the model's own μ ± 2σ (Box–Cox scale), found by iteration from a robust start
 * (median, IQR/1.349 of the log ratios). Pathological pairs in the tails fall outside the region
 * and do not widen the peak. bvdb's own implementation, not refineR's code.
 */
export const centralPeak: CoreEstimator = (v, quick) => {
  const total = v.total;
  let model: BoxCoxNormal;
  let rounds: number;
  let evaluations: number;
  if (quick?.model) {
    model = quick.model;
    rounds = 1;
    evaluations = 120;
  } else {
    const q1 = quantileOf(v, 0.25);
    const median = quantileOf(v, 0.5);
    const q3 = quantileOf(v, 0.75);
    // IQR 0 (coarse results, half the ratios equal): start from the SD of all log ratios instead
    const sd0 = q3 > q1 ? (q3 - q1) / 1.349 : Math.max(momentsOf(v, -Infinity, Infinity).sd || 0, 1e-6);
    model = { lambda: 0, mu: median, sigma: sd0 };
    rounds = 40;
    evaluations = 400;
  }
  let region = centralRegion(model);
  for (let round = 0; round < rounds; round++) {
    const counts = binCountsOf(v, region.lo, region.hi, CENTRAL_BINS);
    model = fitTruncatedBoxCox(counts, region.lo, region.hi, model, evaluations, quick === undefined);
    const next = centralRegion(model);
    const moved = Math.abs(next.lo - region.lo) + Math.abs(next.hi - region.hi);
    region = next;
    if (moved < 1e-6 * (region.hi - region.lo)) break;
  }
  // a bootstrap replicate needs CV_total only
  const inside = quick ? NaN : momentsOf(v, region.lo, region.hi).n;
  // spread of ln r under the model: half the distance between its 15.87th and 84.13th percentiles
  const sdLog = (boxCoxQuantile(model, normalCdf(1)) - boxCoxQuantile(model, normalCdf(-1))) / 2;
  const fit: CoreFit = {
    cvTotal: cvTotalFromLogRatioSd(sdLog),
    pairsUsed: inside,
    steps: [{ step: CENTRAL_STEP, removed: total - inside, remaining: inside }],
    cdf: (y) => boxCoxCdf(model, y),
    quantile: (p) => boxCoxQuantile(model, p),
    region,
    model,
  };
  return fit;
};
