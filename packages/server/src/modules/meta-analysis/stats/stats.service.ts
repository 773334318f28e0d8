import type { StatsResult, StatsRow } from '@bvdb/contract';
import { metaAnalyse } from '@bvdb/domain';
import { presentStatsResult } from './stats.presenter.js';

/** The built-in statistics service: the domain engine on the service's rows. */
export function runMetacalculation(rows: StatsRow[], seed?: number): StatsResult {
  const result = metaAnalyse(
    rows.map((r) => ({
      id: r.ID,
      include: r.Include,
      score: r.Score,
      cv: r.CV,
      ciLower: r.CI_lower,
      ciUpper: r.CI_upper,
    })),
    seed !== undefined ? { seed } : {},
  );
  return presentStatsResult(result);
}

/** The outside statistics service, for the tools that compare with it. */
export { calculateMeta, statsEndpoints } from './stats-client.js';
