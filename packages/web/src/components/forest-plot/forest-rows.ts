import type { MetaRecord } from '@bvdb/contract';
import { leaveOneOut, metaAnalyse, type MetaInputRow, type OverallGrade } from '@bvdb/domain';

export interface ForestStudy {
  id: string;
  title: string;
  /** How many datasets (subgroups) of the study were collapsed into this row. */
  rowCount: number;
  grade: OverallGrade;
  cv: number;
  ciLower: number;
  ciUpper: number;
  /** Normalised weight (0–1) of the study in the weighted median. */
  weight: number;
  /** The weighted median without this study, and how far it moves from the pooled one. */
  withoutIt: number | null;
  shift: number | null;
}

const GRADES: readonly string[] = ['A', 'B', 'C', 'D'];

/**
 * One row per study of a meta-analysis, as the engine pooled it: the datasets sharing a study id are
 * collapsed by metaAnalyse (weighted medians of CV and CI limits with 1/CI-width weights, the worst
 * grade), the weight is the stored normalised weight, and the leave-one-out medians come from
 * leaveOneOut on those weights.
 */
export function forestStudiesOf(meta: Pick<MetaRecord, 'datasets'>): ForestStudy[] {
  const rows: MetaInputRow[] = meta.datasets
    .filter((d) => GRADES.includes(d.grade))
    .map((d) => ({
      id: d.study_id,
      include: true,
      score: d.grade as OverallGrade,
      cv: d.cv,
      ciLower: d.ci_lower,
      ciUpper: d.ci_upper,
    }));
  // One resample: only the collapsed studies are wanted here, not the bootstrap limits.
  const { studies } = metaAnalyse(rows, { resamples: 1 });
  const stored = new Map(meta.datasets.map((d) => [d.study_id, d]));
  const weighted = studies.map((s) => ({ ...s, weight: stored.get(s.id)?.weight ?? s.normalisedWeight }));
  const loo = new Map(leaveOneOut(weighted).map((r) => [r.id, r]));
  return weighted.map((s) => ({
    id: s.id,
    title: stored.get(s.id)?.reference_title ?? s.id,
    rowCount: s.rowCount,
    grade: s.grade,
    cv: s.cv,
    ciLower: s.ciLower,
    ciUpper: s.ciUpper,
    weight: s.weight,
    withoutIt: loo.get(s.id)?.weightedMedian ?? null,
    shift: loo.get(s.id)?.shift ?? null,
  }));
}

/**
 * Round, readable axis ticks spanning `min`–`max` (1, 2 or 5 × 10^k steps, about 5 of them), from 0
 * when the span reaches down near it, else from the step below `min` so narrow CIs stay visible.
 */
export function axisTicks(min: number, max: number): number[] {
  const lo0 = Number.isFinite(min) && min > 0 ? min : 0;
  const hi = max > lo0 && Number.isFinite(max) ? max : lo0 + 1;
  const lo = lo0 < (hi - lo0) / 2 ? 0 : lo0;
  const raw = (hi - lo) / 5;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let t = Math.floor(lo / step) * step; t < hi + step - 1e-9; t += step)
    ticks.push(Number(t.toFixed(10)));
  return ticks;
}
