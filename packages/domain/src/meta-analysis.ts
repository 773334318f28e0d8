import { GRADE_WEIGHT, type OverallGrade } from './bivac.js';
import { eligibilityOf, type ExclusionReason } from './meta-eligibility.js';
import { mulberry32 } from './prng.js';
import { roundHalfUp } from './rounding.js';
import { weightedMedian } from './weighted-median.js';

export interface MetaInputRow {
  /** The publication or study the row belongs to; rows sharing an id are subgroups of one study. */
  id: string | number;
  include: boolean;
  score: OverallGrade;
  cv: number | null;
  ciLower: number | null;
  ciUpper: number | null;
}

export interface MetaStudy {
  id: string;
  cv: number;
  ciLower: number;
  ciUpper: number;
  grade: OverallGrade;
  /** grade factor / CI width */
  weight: number;
  /** weight / sum of weights */
  normalisedWeight: number;
  rowCount: number;
}

export type MetaMethod = 'none' | 'single' | 'range' | 'bootstrap';

export interface MetaResult {
  n: number;
  weightedMedian: number | null;
  rangeLower: number | null;
  rangeUpper: number | null;
  method: MetaMethod;
  seed: number | null;
  resamples: number;
  studies: MetaStudy[];
  /** Rows left out, with why (eligibilityOf), and studies whose collapsed CI has no width. */
  excluded: { id: string; reason: ExclusionReason }[];
}

export const DEFAULT_SEED = 20180501;
export const DEFAULT_RESAMPLES = 999;
const RANK: Record<OverallGrade, number> = { A: 0, B: 1, C: 2, D: 3 };

/** R's default (type 7) quantile of sorted values. */
export function quantileType7(sorted: ArrayLike<number>, n: number, p: number): number {
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * The metacalculation service (EFLM BV database; cwebster/metacalculation-python), exactly:
 * 1. keep the rows eligibilityOf lets in (Include true, grade A–C, complete, CI wider than zero);
 * 2. collapse rows sharing an ID with 1/(CI width) weights and the weighted median of CV, CI_lower
 *    and CI_upper; the worst grade;
 * 3. study weight = grade factor (A 4, B 2, C 1) / CI width;
 * 4. N = 0 → nulls; N = 1 → its CV and own CI; 2 ≤ N ≤ 10 → min–max of study CVs;
 *    N > 10 → 2.5th/97.5th percentiles (type 7) of 999 seeded bootstrap weighted medians.
 * A zero-width CI cannot be weighted (1/0) and is excluded with that reason.
 */
export function metaAnalyse(
  rows: readonly MetaInputRow[],
  opts: { seed?: number; resamples?: number } = {},
): MetaResult {
  const seed = opts.seed ?? DEFAULT_SEED;
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const excluded: MetaResult['excluded'] = [];
  const groups = new Map<string, MetaInputRow[]>();
  for (const row of rows) {
    const id = String(row.id);
    // The statistics service's rows carry no population: a caller holding one (the recomputation)
    // has already folded it into `include`.
    const verdict = eligibilityOf({
      includedByCurator: row.include,
      healthy: true,
      grade: row.score,
      cv: row.cv,
      ciLower: row.ciLower,
      ciUpper: row.ciUpper,
    });
    if (!verdict.eligible) excluded.push({ id, reason: verdict.reason });
    else {
      const list = groups.get(id) ?? [];
      list.push(row);
      groups.set(id, list);
    }
  }

  // Canonical order by id: the result (bootstrap included) does not depend on the order of rows.
  const ids = [...groups.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const raw = ids.map((id) => {
    const list = groups.get(id)!;
    const grade = list.reduce<OverallGrade>(
      (worst, r) => (RANK[r.score] > RANK[worst] ? r.score : worst),
      'A',
    );
    if (list.length === 1) {
      const r = list[0]!;
      return { id, cv: r.cv!, ciLower: r.ciLower!, ciUpper: r.ciUpper!, grade, rowCount: 1 };
    }
    const w = list.map((r) => 1 / (r.ciUpper! - r.ciLower!));
    return {
      id,
      cv: weightedMedian(
        list.map((r) => r.cv!),
        w,
      )!,
      ciLower: weightedMedian(
        list.map((r) => r.ciLower!),
        w,
      )!,
      ciUpper: weightedMedian(
        list.map((r) => r.ciUpper!),
        w,
      )!,
      grade,
      rowCount: list.length,
    };
  });
  const weighted = raw.map((s) => ({ ...s, weight: GRADE_WEIGHT[s.grade] / (s.ciUpper - s.ciLower) }));
  const usable = weighted.filter((s) => {
    if (Number.isFinite(s.weight) && s.weight > 0) return true;
    excluded.push({ id: s.id, reason: 'zero-width or inverted confidence interval' });
    return false;
  });
  const total = usable.reduce((sum, s) => sum + s.weight, 0);
  const studies: MetaStudy[] = usable.map((s) => ({ ...s, normalisedWeight: s.weight / total }));
  const n = studies.length;
  const base = { n, studies, excluded, resamples: 0, seed: null };

  if (n === 0) return { ...base, weightedMedian: null, rangeLower: null, rangeUpper: null, method: 'none' };
  if (n === 1) {
    const s = studies[0]!;
    return { ...base, weightedMedian: s.cv, rangeLower: s.ciLower, rangeUpper: s.ciUpper, method: 'single' };
  }
  const median = weightedMedian(
    studies.map((s) => s.cv),
    studies.map((s) => s.weight),
  );
  if (n <= 10) {
    const cvs = studies.map((s) => s.cv);
    return {
      ...base,
      weightedMedian: median,
      rangeLower: Math.min(...cvs),
      rangeUpper: Math.max(...cvs),
      method: 'range',
    };
  }
  const { lower, upper } = bootstrapLimits(studies, seed, resamples);
  return {
    ...base,
    weightedMedian: median,
    rangeLower: lower,
    rangeUpper: upper,
    method: 'bootstrap',
    seed,
    resamples,
  };
}

/**
 * Percentile bootstrap of the weighted median: studies resampled with replacement, each keeping its
 * weight. A resample is a count per study; walking the studies in CV order with those counts gives
 * exactly the weighted median of the resample with its repeated entries (see weightedMedianSorted),
 * in O(N) per resample without building it.
 */
function bootstrapLimits(studies: MetaStudy[], seed: number, resamples: number) {
  const n = studies.length;
  const order = studies.map((_, i) => i).sort((a, b) => studies[a]!.cv - studies[b]!.cv);
  const xs = new Float64Array(n);
  const ws = new Float64Array(n);
  order.forEach((idx, i) => {
    xs[i] = studies[idx]!.cv;
    ws[i] = studies[idx]!.weight;
  });
  const rank = new Int32Array(n);
  order.forEach((idx, i) => (rank[idx] = i));
  const random = mulberry32(seed);
  const counts = new Int32Array(n);
  const medians = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    counts.fill(0);
    let total = 0;
    for (let j = 0; j < n; j++) {
      const r = rank[Math.floor(random() * n)]!;
      counts[r]!++;
      total += ws[r]!;
    }
    medians[b] = walkCounts(xs, ws, counts, n, total / 2);
  }
  medians.sort();
  return { lower: quantileType7(medians, resamples, 0.025), upper: quantileType7(medians, resamples, 0.975) };
}

/** The weighted-median rule over sorted values where value i appears counts[i] times. */
function walkCounts(xs: Float64Array, ws: Float64Array, counts: Int32Array, n: number, half: number): number {
  let cum = 0;
  let prevC = 0;
  let prevX = 0;
  let seen = false;
  for (let i = 0; i < n; i++) {
    const k = counts[i]!;
    if (k === 0) continue;
    const w = ws[i]!;
    const first = cum + w / 2;
    if (first >= half) {
      if (!seen) return xs[i]!;
      return xs[i]! + ((half - first) * (xs[i]! - prevX)) / (first - prevC);
    }
    const last = cum + (k - 0.5) * w;
    // A later copy crosses: interpolating between equal values gives the value itself.
    if (last >= half) return xs[i]!;
    prevC = last;
    prevX = xs[i]!;
    seen = true;
    cum += k * w;
  }
  return prevX;
}

/** The service's output rounding (4 decimals); the website shows 1. */
export function roundMetaResult(r: MetaResult, decimals = 4): MetaResult {
  const round = (v: number | null) => (v === null ? null : roundHalfUp(v, decimals));
  return {
    ...r,
    weightedMedian: round(r.weightedMedian),
    rangeLower: round(r.rangeLower),
    rangeUpper: round(r.rangeUpper),
  };
}
