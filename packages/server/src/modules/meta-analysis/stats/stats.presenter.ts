import type { StatsResult } from '@bvdb/contract';
import { roundHalfUp, type MetaResult } from '@bvdb/domain';

const r4 = (v: number | null) => (v === null ? null : roundHalfUp(v, 4));

/** The engine's result in the R service's shape and rounding: every number to 4 decimals. */
export function presentStatsResult(result: MetaResult): StatsResult {
  return {
    N: result.n,
    'W.Median': r4(result.weightedMedian),
    Range_lower: r4(result.rangeLower),
    Range_upper: r4(result.rangeUpper),
    method: result.method,
    seed: result.seed,
    weights: result.studies.map((s) => ({
      ID: s.id,
      Score: s.grade,
      CV: roundHalfUp(s.cv, 4),
      CI_lower: roundHalfUp(s.ciLower, 4),
      CI_upper: roundHalfUp(s.ciUpper, 4),
      weight: roundHalfUp(s.normalisedWeight, 4),
      rows: s.rowCount,
    })),
  };
}
