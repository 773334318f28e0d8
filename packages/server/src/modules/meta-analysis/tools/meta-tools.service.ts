import type { StatsRow, ValidationRow } from '@bvdb/contract';
import { notFound } from '../../../lib/app-error.js';
import type { ServiceDeps } from '../../../lib/service-deps.js';
import { loadMetaGroups, metaInputRows, specEligibility } from '../calculation/meta-calculation.service.js';
import { calculateMeta, runBvdbRule, statsEndpoints } from '../stats/stats.service.js';
import { listSpecsForValidation } from './meta-tools.repository.js';
import { presentInputCsv, presentValidationRow } from './meta-tools.presenter.js';

/** Unknown ids are answered in `not_found`, not as a 404: one stale id should not hide the rest. */
export async function validateForMeta(
  deps: Pick<ServiceDeps, 'db'>,
  ids: number[],
): Promise<{ output: ValidationRow[]; not_found: number[] }> {
  const unique = [...new Set(ids)];
  const rows = await listSpecsForValidation(deps.db, unique);
  const found = new Map(rows.map((r) => [r.spec.id, r]));
  return {
    output: unique
      .filter((id) => found.has(id))
      .map((id) => {
        const row = found.get(id)!;
        return presentValidationRow(row, specEligibility(row.spec));
      }),
    not_found: unique.filter((id) => !found.has(id)),
  };
}

/**
 * The curators' simulation: their rows through the configured statistics service (the R service's
 * rule), and beside it what bvdb's recompute would publish from them (its eligibility rule).
 */
export async function simulateMeta(deps: Pick<ServiceDeps, 'config'>, rows: StatsRow[], seed?: number) {
  const service = await calculateMeta(deps.config.STATS_URL, rows, seed);
  return { ...service, bvdb_rule: runBvdbRule(rows, seed) };
}

/** Where the configured statistics service answers, absolute (ours is under `ownOrigin`). */
export const statsServiceOf = (deps: Pick<ServiceDeps, 'config'>, ownOrigin: string) =>
  statsEndpoints(deps.config.STATS_URL, ownOrigin);

/** The statistics service's input of each group (matrix, consolidation) of one measurand. */
export async function inputTables(deps: Pick<ServiceDeps, 'db'>, analyteId: number) {
  const loaded = await loadMetaGroups(deps.db, analyteId);
  if (!loaded) throw notFound(`Measurand ${analyteId}`);
  return {
    analyte: { id: loaded.analyte.id, display_name: loaded.analyte.displayName },
    tables: loaded.groups.map((g) => ({
      label: g.label,
      matrix_id: g.matrixId,
      matrix_consolidation_id: g.consolidationId,
      within: presentInputCsv(metaInputRows(g.specs, ':cvi')),
      between: presentInputCsv(metaInputRows(g.specs, ':cvg')),
    })),
  };
}
