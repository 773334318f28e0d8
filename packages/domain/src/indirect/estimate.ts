/**
 * The indirect estimate (issue 46): pair a laboratory's routine results, run the chosen methods on
 * all pairs and on each stratum (sex, age band, setting), and answer CV_total, CVI with a bootstrap
 * interval, the RCV from the model and from the formula, and a histogram with the fitted model.
 * Steps and sources: docs/domain/indirect-bv.md.
 */
import { normalQuantile } from '../distributions.js';
import { DomainInputError, TooFewPairsError } from '../errors.js';
import { mulberry32 } from '../prng.js';
import { rcvAsymmetric } from '../rcv.js';
import {
  centralPeak,
  type CoreEstimator,
  type CoreFit,
  expectedMeanSquares,
  resultRatioTukey,
} from './methods.js';
import { pairResults, strataOf } from './pairing.js';
import { type PairSample, resampleWeights, toSample } from './sample.js';
import {
  type HistogramBin,
  type IndirectEstimate,
  type IndirectMethod,
  type IndirectOptions,
  type IndirectStratum,
  INDIRECT_METHODS,
  type MethodResult,
  MIN_INDIRECT_PAIRS,
  type RoutineResult,
} from './types.js';

export const DEFAULT_INDIRECT_OPTIONS: IndirectOptions = {
  minDays: 1,
  maxDays: 30,
  pairsPerPatient: 'all',
  methods: INDIRECT_METHODS,
  probability: 0.95,
  bootstrap: 500,
  seed: 46,
};

export const METHOD_SOURCES: Record<IndirectMethod, string> = {
  result_ratio:
    "Tan RZ, Markus C, Vasikaran S, Loh TP, Clin Chem Lab Med 2022;60:636-44 (modified result ratio with Tukey's rule); Jones GRD, Clin Chem 2019;65:579-88",
  expected_mean_squares:
    'Tan RZ, Markus C, Vasikaran S, Loh TP, Clin Chem Lab Med 2022;60:636-44 (expected mean squares)',
  central_peak:
    'Røys EÅ et al., Clin Chem Lab Med 2024 (central peak of result ratios); Ammer T et al., Sci Rep 2021;11:16023 (refineR, Box–Cox-normal model); own implementation',
};

const ESTIMATORS: Record<IndirectMethod, CoreEstimator> = {
  result_ratio: resultRatioTukey,
  expected_mean_squares: expectedMeanSquares,
  central_peak: centralPeak,
};

/** Bins of the log-ratio histogram shown under each method. */
export const HISTOGRAM_BINS = 40;

function checkOptions(o: IndirectOptions): void {
  if (!(o.minDays >= 0) || !(o.maxDays >= o.minDays))
    throw new DomainInputError('the interval between two results must be from 0 days up, the shortest first');
  if (o.firstResultRange && !(o.firstResultRange.high >= o.firstResultRange.low))
    throw new DomainInputError('the range for the first result must have its low end first');
  if (!(o.probability > 0 && o.probability < 1))
    throw new DomainInputError('probability must be between 0 and 1');
  if (o.cva !== undefined && !(o.cva >= 0)) throw new DomainInputError('CVA must not be negative');
  if (!Number.isInteger(o.bootstrap) || o.bootstrap < 0)
    throw new DomainInputError('the number of bootstrap resamples must be a whole number, 0 or more');
}

/** CVI = √(CV_total² − CVA²), %; null when CVA is missing or not below CV_total. */
export function cviFromTotal(cvTotal: number, cva: number | undefined): number | null {
  if (cva === undefined || !(cvTotal > cva)) return null;
  return Math.sqrt(cvTotal * cvTotal - cva * cva);
}

/** Histogram of all pairs' log ratios between their 0.5th and 99.5th percentiles. */
function histogramOf(s: PairSample): { bins: HistogramBin[]; lo: number; hi: number } {
  const q = (p: number) => {
    const h = (s.n - 1) * p;
    const i = Math.floor(h);
    const a = s.y[i] as number;
    const b = s.y[Math.min(i + 1, s.n - 1)] as number;
    return a + (h - i) * (b - a);
  };
  let lo = q(0.005);
  let hi = q(0.995);
  if (!(hi > lo)) {
    lo -= 0.01;
    hi += 0.01;
  }
  const width = (hi - lo) / HISTOGRAM_BINS;
  const counts = new Array<number>(HISTOGRAM_BINS).fill(0);
  for (let i = 0; i < s.n; i++) {
    const v = s.y[i] as number;
    if (v < lo || v > hi) continue;
    const b = Math.min(HISTOGRAM_BINS - 1, Math.floor((v - lo) / width));
    counts[b] = (counts[b] ?? 0) + 1;
  }
  return {
    bins: counts.map((count, b) => ({ from: lo + b * width, to: lo + (b + 1) * width, count })),
    lo,
    hi,
  };
}

/** Expected counts of the fitted model over the bins: the model stands for pairsUsed / P(region). */
function fittedCounts(fit: CoreFit, bins: readonly HistogramBin[]): number[] {
  const mass = fit.cdf(fit.region.hi) - fit.cdf(fit.region.lo);
  const scale = mass > 0 ? fit.pairsUsed / mass : 0;
  return bins.map((b) => scale * (fit.cdf(b.to) - fit.cdf(b.from)));
}

function percentile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const i = Math.floor(h);
  const a = sorted[i] as number;
  const b = sorted[Math.min(i + 1, sorted.length - 1)] as number;
  return a + (h - i) * (b - a);
}

/** One method on one stratum's pairs. */
export function runMethod(
  method: IndirectMethod,
  s: PairSample,
  options: IndirectOptions,
  histogram: readonly HistogramBin[],
): MethodResult {
  const estimator = ESTIMATORS[method];
  const fit = estimator(s, null, s.n);
  const cvi = cviFromTotal(fit.cvTotal, options.cva);
  let cviInterval: MethodResult['cviInterval'] = null;
  if (cvi !== null && options.bootstrap > 0) {
    const rng = mulberry32(options.seed + INDIRECT_METHODS.indexOf(method));
    const w = new Float64Array(s.n);
    const values: number[] = [];
    for (let b = 0; b < options.bootstrap; b++) {
      const total = resampleWeights(s, rng, w);
      const rep = estimator(s, w, total, fit);
      values.push(cviFromTotal(rep.cvTotal, options.cva) ?? 0);
    }
    values.sort((a, b) => a - b);
    cviInterval = { low: percentile(values, 0.025), high: percentile(values, 0.975) };
  }
  const tail = (1 - options.probability) / 2;
  const rcvModel = {
    up: 100 * Math.expm1(fit.quantile(1 - tail)),
    down: -100 * Math.expm1(fit.quantile(tail)),
  };
  let rcvFormula: MethodResult['rcvFormula'] = null;
  if (cvi !== null && options.cva !== undefined) {
    const r = rcvAsymmetric(cvi, options.cva, normalQuantile(1 - tail));
    rcvFormula = { up: r.up, down: Math.abs(r.down) };
  }
  const note =
    options.cva === undefined
      ? 'no CVA given: CV_total only'
      : cvi === null
        ? `CVA (${options.cva} %) is not below CV_total: no CVI`
        : undefined;
  return {
    method,
    source: METHOD_SOURCES[method],
    pairsUsed: fit.pairsUsed,
    steps: fit.steps,
    cvTotal: fit.cvTotal,
    cvi,
    cviInterval,
    rcvModel,
    rcvFormula,
    histogram,
    fitted: fittedCounts(fit, histogram),
    ...(note ? { note } : {}),
  };
}

function stratum(
  key: Record<string, string>,
  results: readonly RoutineResult[],
  options: IndirectOptions,
  required: boolean,
): IndirectStratum {
  const pairs = pairResults(results, options);
  if (pairs.summary.pairs < MIN_INDIRECT_PAIRS) {
    if (required) throw new TooFewPairsError(pairs.summary.pairs, MIN_INDIRECT_PAIRS);
    return {
      key,
      pairing: pairs.summary,
      methods: [],
      note: `only ${pairs.summary.pairs} pairs; at least ${MIN_INDIRECT_PAIRS} are needed for an estimate`,
    };
  }
  const s = toSample(pairs);
  const { bins } = histogramOf(s);
  return {
    key,
    pairing: pairs.summary,
    methods: options.methods.map((m) => runMethod(m, s, options, bins)),
  };
}

/**
 * The whole estimate: all results, then each stratum the file allows. Fewer than MIN_INDIRECT_PAIRS
 * pairs overall → TooFewPairsError; a stratum with too few pairs is answered with its pairing and a
 * note, without methods.
 */
export function estimateIndirect(
  results: readonly RoutineResult[],
  options: IndirectOptions,
): IndirectEstimate {
  checkOptions(options);
  const all = stratum({}, results, options, true);
  const strata = strataOf(results).map((g) => stratum(g.key, g.results, options, false));
  return { all, strata };
}
