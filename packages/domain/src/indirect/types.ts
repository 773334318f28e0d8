/**
 * Indirect biological variation (issue 46): the within-subject CV estimated from consecutive routine
 * results of the same patients. These types are the one interface between the pure methods (this
 * folder) and the server/page that feed them; neither side adds fields the other does not read.
 *
 * Nothing here carries a patient id, a value or a date out: results are counts and summaries only
 * (issue 46.4).
 */

/** One routine result as the server hands it over after parsing and unit checks. */
export interface RoutineResult {
  /** Pseudonymous patient id, only used to group; never appears in any output. */
  readonly patient: string;
  /** Milliseconds since the epoch of the result's date and time. */
  readonly time: number;
  /** The value, already in one unit (mixed units are refused before this point). */
  readonly value: number;
  readonly sex?: 'male' | 'female';
  /** Age in years at the result, when the file has it. */
  readonly age?: number;
  readonly setting?: 'inpatient' | 'outpatient' | 'primary_care';
}

export type IndirectMethod = 'result_ratio' | 'expected_mean_squares' | 'central_peak';
export const INDIRECT_METHODS: readonly IndirectMethod[] = [
  'result_ratio',
  'expected_mean_squares',
  'central_peak',
];

export interface IndirectOptions {
  /** Interval allowed between two consecutive results, in days (default 1–30). */
  readonly minDays: number;
  readonly maxDays: number;
  /** At most one pair per patient (the first eligible one), or all consecutive pairs. */
  readonly pairsPerPatient: 'one' | 'all';
  /** Keep only pairs whose first result lies in this interval (e.g. the reference interval). */
  readonly firstResultRange?: { readonly low: number; readonly high: number };
  readonly methods: readonly IndirectMethod[];
  /** The laboratory's analytical CV, %; without it only CV_total is given (no CVI). */
  readonly cva?: number;
  /** Probability for the RCV, as the RCV tool reads it (default 0.95, two-sided). */
  readonly probability: number;
  /** Bootstrap resamples for the CVI interval (default 500; tests may use fewer). */
  readonly bootstrap: number;
  /** Seed of the bootstrap's PRNG, so a run can be repeated exactly. */
  readonly seed: number;
}

/** A step of the pipeline with how many pairs (or results) it removed, e.g. "Tukey fences". */
export interface ExclusionStep {
  readonly step: string;
  readonly removed: number;
  readonly remaining: number;
}

/** Pairing: what happened before any method ran. */
export interface PairingSummary {
  readonly results: number;
  readonly patients: number;
  /** Duplicate or non-increasing times within a patient: dropped and counted (46.5). */
  readonly droppedDuplicateTimes: number;
  readonly pairs: number;
  readonly steps: readonly ExclusionStep[];
}

export interface Interval {
  readonly low: number;
  readonly high: number;
}

export interface HistogramBin {
  /** Bin edges on the log-ratio scale ln(x2/x1). */
  readonly from: number;
  readonly to: number;
  readonly count: number;
}

export interface MethodResult {
  readonly method: IndirectMethod;
  /** Short citation of the method's source, e.g. "Tan et al., Clin Chem Lab Med 2022". */
  readonly source: string;
  readonly pairsUsed: number;
  readonly steps: readonly ExclusionStep[];
  /** CV_total, %: within-subject and analytical variation together. */
  readonly cvTotal: number;
  /** CVI = √(CV_total² − CVA²), %; null without a CVA or when CVA ≥ CV_total (said in `note`). */
  readonly cvi: number | null;
  /** Bootstrap interval of the CVI (percentile, 95 %); null when cvi is null. */
  readonly cviInterval: Interval | null;
  /** RCV from the fitted model's quantiles of the log ratio, %, up and down (positive numbers). */
  readonly rcvModel: { readonly up: number; readonly down: number };
  /** RCV from the log-normal formula with this CVI and the CVA (Fokkema 2006), %; null without cvi. */
  readonly rcvFormula: { readonly up: number; readonly down: number } | null;
  /** The histogram of the log ratios used, and the fitted model's density over the same bins (expected counts). */
  readonly histogram: readonly HistogramBin[];
  readonly fitted: readonly number[];
  readonly note?: string;
}

export interface IndirectStratum {
  /** e.g. { sex: 'female' } or { ageBand: '18–64' } or { setting: 'outpatient' }; {} for all. */
  readonly key: Readonly<Record<string, string>>;
  readonly pairing: PairingSummary;
  readonly methods: readonly MethodResult[];
  /** Why a stratum has no methods (fewer pairs than MIN_INDIRECT_PAIRS); absent otherwise. */
  readonly note?: string;
}

export interface IndirectEstimate {
  readonly all: IndirectStratum;
  readonly strata: readonly IndirectStratum[];
}

/** Fewer pairs than this and a method refuses to estimate (46.5 says how many there were). */
export const MIN_INDIRECT_PAIRS = 50;
