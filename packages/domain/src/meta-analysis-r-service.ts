import { GRADE_WEIGHT, type OverallGrade } from './bivac.js';
import {
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  quantileType7,
  type MetaInputRow,
  type MetaResult,
  type MetaStudy,
} from './meta-analysis.js';
import { mulberry32 } from './prng.js';
import { weightedMedian } from './weighted-median.js';

const RANK: Record<OverallGrade, number> = { A: 0, B: 1, C: 2, D: 3 };

/**
 * The outside statistics service's own rule (the R service; its public Python port
 * cwebster/metacalculation-python, app/core.py), which differs from bvdb's (metaAnalyse, decision
 * 003) in two edge cases:
 * - rows with Include true and grade D are kept: weight 0 in the weighted median, but counted in N
 *   and in the min–max range, and resampled in the bootstrap as weight-0 studies;
 * - a zero-width CI is not dropped: its weight 1/0 is infinite, and matrixStats::weightedMedian
 *   then counts only the infinite-weight values (equally).
 * Otherwise the same steps: rows with a missing value or Include false are left out (`dropna`);
 * rows sharing an ID collapse with 1/(CI width) weights (worst grade); study weight = grade factor /
 * CI width; N = 1 → its CV and CI; 2 ≤ N ≤ 10 → min–max of CVs; N > 10 → type-7 percentiles of
 * 999 seeded bootstrap weighted medians. A weighted median with no positive weight is NA (null).
 */
export function metaAnalyseRService(
  rows: readonly MetaInputRow[],
  opts: { seed?: number; resamples?: number } = {},
): MetaResult {
  const seed = opts.seed ?? DEFAULT_SEED;
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const excluded: MetaResult['excluded'] = [];
  const groups = new Map<string, (MetaInputRow & { cv: number; ciLower: number; ciUpper: number })[]>();
  for (const row of rows) {
    const id = String(row.id);
    if (!row.include) excluded.push({ id, reason: 'not included by the curator' });
    else if (row.cv === null || !Number.isFinite(row.cv)) excluded.push({ id, reason: 'no estimate' });
    else if (row.ciLower === null || row.ciUpper === null)
      excluded.push({ id, reason: 'no confidence interval' });
    else {
      const list = groups.get(id) ?? [];
      list.push({ ...row, cv: row.cv, ciLower: row.ciLower, ciUpper: row.ciUpper });
      groups.set(id, list);
    }
  }
  const ids = [...groups.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const raw = ids.map((id) => {
    const list = groups.get(id)!;
    const grade = list.reduce<OverallGrade>(
      (worst, r) => (RANK[r.score] > RANK[worst] ? r.score : worst),
      'A',
    );
    if (list.length === 1) {
      const r = list[0]!;
      return { id, cv: r.cv, ciLower: r.ciLower, ciUpper: r.ciUpper, grade, rowCount: 1 };
    }
    const w = list.map((r) => 1 / (r.ciUpper - r.ciLower));
    const wm = (xs: number[]) => weightedMedian(xs, w) ?? NaN;
    return {
      id,
      cv: wm(list.map((r) => r.cv)),
      ciLower: wm(list.map((r) => r.ciLower)),
      ciUpper: wm(list.map((r) => r.ciUpper)),
      grade,
      rowCount: list.length,
    };
  });
  // A study whose rows all have inverted CIs has no collapsed value (every weight negative).
  const collapsed = raw.filter((s) => {
    if ([s.cv, s.ciLower, s.ciUpper].every(Number.isFinite)) return true;
    excluded.push({ id: s.id, reason: 'zero-width or inverted confidence interval' });
    return false;
  });
  // 1/0 is Infinity, as in R; 0 × Infinity (grade D with a zero-width CI) is NaN there, weight none here.
  const weighted = collapsed.map((s) => {
    const factor = GRADE_WEIGHT[s.grade];
    const weight = factor === 0 ? 0 : factor / (s.ciUpper - s.ciLower);
    return { ...s, weight: Number.isNaN(weight) ? 0 : weight };
  });
  const n = weighted.length;
  const infinite = weighted.filter((s) => s.weight === Infinity).length;
  const positive = weighted.reduce(
    (sum, s) => (s.weight > 0 && Number.isFinite(s.weight) ? sum + s.weight : sum),
    0,
  );
  const studies: MetaStudy[] = weighted.map((s) => ({
    ...s,
    normalisedWeight:
      infinite > 0
        ? s.weight === Infinity
          ? 1 / infinite
          : 0
        : s.weight > 0 && positive > 0
          ? s.weight / positive
          : 0,
  }));
  const base = { n, studies, excluded, resamples: 0, seed: null };
  const finite = (v: number | null) => (v === null || !Number.isFinite(v) ? null : v);

  if (n === 0) return { ...base, weightedMedian: null, rangeLower: null, rangeUpper: null, method: 'none' };
  if (n === 1) {
    const s = studies[0]!;
    return {
      ...base,
      weightedMedian: finite(s.cv),
      rangeLower: finite(s.ciLower),
      rangeUpper: finite(s.ciUpper),
      method: 'single',
    };
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
      rangeLower: finite(Math.min(...cvs)),
      rangeUpper: finite(Math.max(...cvs)),
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
 * Percentile bootstrap of the weighted median with the same draws as metaAnalyse's (studies in ID
 * order, one uniform draw per pick), so on data both rules accept both give the same limits.
 * A resample whose weights are all zero has no median (NA): then the limits are null, as the service
 * cannot give them either.
 */
function bootstrapLimits(studies: MetaStudy[], seed: number, resamples: number) {
  const n = studies.length;
  const random = mulberry32(seed);
  const medians = new Float64Array(resamples);
  const xs = new Array<number>(n);
  const ws = new Array<number>(n);
  for (let b = 0; b < resamples; b++) {
    for (let j = 0; j < n; j++) {
      const s = studies[Math.floor(random() * n)]!;
      xs[j] = s.cv;
      ws[j] = s.weight;
    }
    const m = weightedMedian(xs, ws);
    if (m === null) return { lower: null, upper: null };
    medians[b] = m;
  }
  medians.sort();
  return { lower: quantileType7(medians, resamples, 0.025), upper: quantileType7(medians, resamples, 0.975) };
}
