import { weightedMedian } from './weighted-median.js';

export interface WeightedStudy {
  id: string;
  cv: number;
  /** Any positive weight (grade factor / CI width, or its normalised share): only ratios matter. */
  weight: number;
}

export interface LeaveOneOutRow {
  id: string;
  /** The weighted median of the other studies; null when no other study is left. */
  weightedMedian: number | null;
  /** weightedMedian − the full weighted median: how far leaving this study out moves the estimate. */
  shift: number | null;
}

/**
 * Leave-one-out sensitivity of the pooled estimate (the "influence" analysis of meta-analysis:
 * Borenstein et al., Introduction to Meta-Analysis, 2009, ch. 43 / Viechtbauer's metafor
 * `leave1out`), with the pooling rule of the metacalculation service: for each study, the weighted
 * median (weightedMedian, interpolated as matrixStats::weightedMedian) of the remaining studies' CVs
 * with their weights renormalised to sum to 1.
 */
export function leaveOneOut(studies: readonly WeightedStudy[]): LeaveOneOutRow[] {
  const all = weightedMedian(
    studies.map((s) => s.cv),
    studies.map((s) => s.weight),
  );
  return studies.map((left, i) => {
    const rest = studies.filter((_, j) => j !== i);
    const total = rest.reduce((sum, s) => sum + s.weight, 0);
    const median =
      total > 0
        ? weightedMedian(
            rest.map((s) => s.cv),
            rest.map((s) => s.weight / total),
          )
        : null;
    return {
      id: left.id,
      weightedMedian: median,
      shift: median === null || all === null ? null : median - all,
    };
  });
}
