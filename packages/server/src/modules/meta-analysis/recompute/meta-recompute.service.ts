import { metaAnalyse, type MetaInputRow } from '@bvdb/domain';
import type { DbOrTx } from '../../../db/client.js';
import { findAnalyte } from '../../analytes/analytes.service.js';
import { findMatricesByIds, listConsolidationMembers } from '../../lookups/lookups.service.js';
import { metaEligibility, type Spec, type VarType } from './meta-eligibility.js';
import * as repo from './meta-recompute.repository.js';

interface MetaGroup {
  matrixId: number | null;
  consolidationId: number | null;
  label: string;
  specs: Spec[];
}

const TYPE_LABEL: Record<VarType, string> = { ':cvi': 'CVI', ':cvg': 'CVG' };

/** The groups one measurand's meta-analyses are computed over: each matrix, each consolidation. */
export async function loadMetaGroups(tx: DbOrTx, analyteId: number, scope: repo.RecomputeScope = 'all') {
  const analyte = await findAnalyte(tx, analyteId);
  if (!analyte) return null;
  const specs = await repo.listSpecsOfAnalyte(tx, analyteId);
  if (specs.length === 0) return { analyte, groups: [] };

  const matrixRows = await findMatricesByIds(tx, [...new Set(specs.map((s) => s.matrixId))]);
  const groups: MetaGroup[] = (scope === 'consolidations' ? [] : matrixRows).map((m) => ({
    matrixId: m.id,
    consolidationId: null,
    label: m.matrixExpansion,
    specs: specs.filter((s) => s.matrixId === m.id),
  }));
  const consolidations = new Map<number, { name: string; matrixIds: Set<number> }>();
  for (const m of await listConsolidationMembers(tx)) {
    const c = consolidations.get(m.id) ?? { name: m.name, matrixIds: new Set<number>() };
    c.matrixIds.add(m.matrixId);
    consolidations.set(m.id, c);
  }
  for (const [id, c] of scope === 'matrices' ? [] : consolidations) {
    const pooled = specs.filter((s) => c.matrixIds.has(s.matrixId));
    // A consolidation adds information only when it pools more than one matrix.
    if (new Set(pooled.map((s) => s.matrixId)).size > 1) {
      groups.push({ matrixId: null, consolidationId: id, label: c.name, specs: pooled });
    }
  }
  return { analyte, groups };
}

/** The statistics service's input rows of one group and type, each with its dataset id. */
export function metaInputRows(specs: Spec[], type: VarType): (MetaInputRow & { specId: number })[] {
  return specs.map((s) => ({ specId: s.id, ...metaEligibility(s, type).row }));
}

/**
 * Replaces every meta-analysis result of one measurand (each matrix, each consolidation, CVI and
 * CVG) with a fresh computation. Run it inside a transaction: readers see the old or the new set,
 * never half of each, and a retry after a crash produces the same rows.
 */
export async function recomputeAnalyteMetas(
  tx: DbOrTx,
  analyteId: number,
  now = new Date(),
  scope: repo.RecomputeScope = 'all',
): Promise<number> {
  const loaded = await loadMetaGroups(tx, analyteId, scope);
  if (!loaded) return 0;
  const { analyte, groups } = loaded;
  await repo.deleteMetasOfAnalyte(tx, analyteId, scope);

  let written = 0;
  for (const group of groups) {
    for (const type of [':cvi', ':cvg'] as const) {
      const rows = metaInputRows(group.specs, type);
      const result = metaAnalyse(rows);
      if (result.n === 0) continue;
      const metaId = await repo.insertMeta(tx, {
        name: `${analyte.displayName} - ${group.label} - ${TYPE_LABEL[type]}`,
        analyteId,
        matrixId: group.matrixId,
        matrixConsolidationId: group.consolidationId,
        varType: type,
        median: result.weightedMedian,
        lower: result.rangeLower,
        upper: result.rangeUpper,
        numberUsed: result.n,
        method: result.method,
        seed: result.seed,
        referenceIds: result.studies.map((s) => Number(s.id)),
        computedAt: now,
        createdAt: now,
        updatedAt: now,
      });
      const weightOf = new Map(result.studies.map((s) => [s.id, s]));
      // Only eligible rows carry include = true (metaEligibility): those, in a study that kept a weight.
      const used = rows.filter((r) => r.include && weightOf.has(String(r.id)));
      await repo.insertMetaDatasets(
        tx,
        used.map((r) => ({
          metaCalculationId: metaId,
          bvSpecificationId: r.specId,
          studyId: String(r.id),
          grade: r.score,
          cv: r.cv!,
          ciLower: r.ciLower!,
          ciUpper: r.ciUpper!,
          weight: weightOf.get(String(r.id))!.normalisedWeight,
        })),
      );
      written++;
    }
  }
  return written;
}

/** The measurands a full recomputation walks: those with a dataset the curators included. */
export const listAnalyteIdsWithDatasets = (db: DbOrTx) => repo.listAnalyteIdsWithDatasets(db);

export { metaEligibility, type MetaEligibility, type VarType } from './meta-eligibility.js';
