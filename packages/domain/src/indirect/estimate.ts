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
import { drawPatients, type PairSample, toSample } from './sample.js';
import { weigh } from './stats.js';
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
  return bins.map((b) => {
    const expected = scale * (fit.cdf(b.to) - fit.cdf(b.from));
    return Number.isFinite(expected) ? expected : 0;
  });
}

function percentile(sorted: readonly number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const i = Math.floor(h);
  const a = sorted[i] as number;
  const b = sorted[Math.min(i + 1, sorted.length - 1)] as number;
  return a + (h - i) * (b - a);
}

/** Below this many different log ratios inside its region a central-peak fit describes rounding. */
export const MIN_DISTINCT_IN_PEAK = 10;

function distinctValues(y: Float64Array, lo: number, hi: number): number {
  let count = 0;
  let last = NaN;
  for (let i = 0; i < y.length; i++) {
    const v = y[i] as number;
    if (v < lo) continue;
    if (v > hi) break;
    if (v !== last) count++;
    last = v;
  }
  return count;
}

/**
 * CVI bootstrap intervals of several methods from the same replicates: patients drawn with
 * replacement (seeded, mulberry32), every method re-run on each replicate, the 2.5th and 97.5th
 * percentiles of its CVI values (a replicate with CV_total ≤ CVA counts as CVI 0).
 */
function bootstrapIntervals(
  s: PairSample,
  fits: readonly { estimator: CoreEstimator; fit: CoreFit }[],
  options: IndirectOptions,
  cva: number,
): { low: number; high: number }[] {
  const rng = mulberry32(options.seed);
  const drawn = new Int32Array(s.patients);
  const multiplicity = { drawn, of: s.patientOf };
  const scratch = {
    W: new Float64Array(s.n + 1),
    S1: new Float64Array(s.n + 1),
    S2: new Float64Array(s.n + 1),
  };
  const values = fits.map(() => new Float64Array(options.bootstrap));
  for (let b = 0; b < options.bootstrap; b++) {
    drawPatients(s, rng, drawn);
    const v = weigh(s.y, multiplicity, scratch);
    fits.forEach(({ estimator, fit }, m) => {
      const rep = estimator(v, fit);
      (values[m] as Float64Array)[b] = cviFromTotal(rep.cvTotal, cva) ?? 0;
    });
  }
  return values.map((v) => {
    const sorted = Array.from(v).sort((a, b) => a - b);
    return { low: percentile(sorted, 0.025), high: percentile(sorted, 0.975) };
  });
}

/** The methods on one stratum's pairs (one shared set of bootstrap replicates). */
export function runMethods(
  methods: readonly IndirectMethod[],
  s: PairSample,
  options: IndirectOptions,
  histogram: readonly HistogramBin[],
): MethodResult[] {
  const data = weigh(s.y, null);
  const fits = methods.map((method) => {
    const estimator = ESTIMATORS[method];
    return { method, estimator, fit: estimator(data) };
  });
  const cva = options.cva;
  const withCvi = fits.filter(({ fit }) => cviFromTotal(fit.cvTotal, cva) !== null);
  const intervals =
    cva !== undefined && options.bootstrap > 0 ? bootstrapIntervals(s, withCvi, options, cva) : [];
  const tail = (1 - options.probability) / 2;
  return fits.map(({ method, fit }) => {
    const cvi = cviFromTotal(fit.cvTotal, cva);
    const at = withCvi.findIndex((f) => f.method === method);
    const rcvModel = {
      up: 100 * Math.expm1(fit.quantile(1 - tail)),
      down: -100 * Math.expm1(fit.quantile(tail)),
    };
    let rcvFormula: MethodResult['rcvFormula'] = null;
    if (cvi !== null && cva !== undefined) {
      // the RCV tool's asymmetric RCV; `down` given as a positive number, like rcvModel's
      const r = rcvAsymmetric(cvi, cva, normalQuantile(1 - tail));
      rcvFormula = { up: r.up, down: Math.abs(r.down) };
    }
    const notes: string[] = [];
    if (cva === undefined) notes.push('no CVA given: CV_total only');
    else if (cvi === null) notes.push(`CVA (${cva} %) is not below CV_total: no CVI`);
    if (method === 'central_peak' && distinctValues(s.y, fit.region.lo, fit.region.hi) < MIN_DISTINCT_IN_PEAK)
      notes.push(
        `the central peak holds fewer than ${MIN_DISTINCT_IN_PEAK} different ratios (results too coarse for this fit): do not use its CV`,
      );
    if (method === 'result_ratio' && !options.firstResultRange)
      notes.push(
        'no range for the first result: the plain result ratio (the modified method keeps pairs whose first result lies in the reference interval)',
      );
    return {
      method,
      source: METHOD_SOURCES[method],
      pairsUsed: fit.pairsUsed,
      steps: fit.steps,
      cvTotal: fit.cvTotal,
      cvi,
      cviInterval: cvi !== null && at >= 0 ? (intervals[at] ?? null) : null,
      rcvModel,
      rcvFormula,
      histogram,
      fitted: fittedCounts(fit, histogram),
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    };
  });
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
    methods: runMethods(options.methods, s, options, bins),
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
