import { metaAnalyse, type MetaInputRow } from '@bvdb/domain';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import {
  analytes,
  bvSpecifications,
  matrices,
  matrixConsolidationMembers,
  matrixConsolidations,
  metaCalculationDatasets,
  metaCalculations,
} from '../../db/schema.js';
import { metaEligibility, type Spec, type VarType } from './meta-eligibility.js';

export { estimateOf } from './meta-eligibility.js';

export interface MetaGroup {
  matrixId: number | null;
  consolidationId: number | null;
  label: string;
  specs: Spec[];
}

const TYPE_LABEL: Record<VarType, string> = { ':cvi': 'CVI', ':cvg': 'CVG' };

export type RecomputeScope = 'matrices' | 'consolidations' | 'all';

/** The groups one measurand's meta-analyses are computed over: each matrix, each consolidation. */
export async function loadMetaGroups(
  tx: DbOrTx,
  analyteId: number,
  scope: RecomputeScope = 'all',
): Promise<{ analyte: typeof analytes.$inferSelect; groups: MetaGroup[] } | null> {
  const [analyte] = await tx.select().from(analytes).where(eq(analytes.id, analyteId));
  if (!analyte) return null;
  const specs = await tx
    .select()
    .from(bvSpecifications)
    .where(eq(bvSpecifications.analyteId, analyteId))
    .orderBy(asc(bvSpecifications.id));
  if (specs.length === 0) return { analyte, groups: [] };

  const matrixRows = await tx
    .select()
    .from(matrices)
    .where(inArray(matrices.id, [...new Set(specs.map((s) => s.matrixId))]))
    .orderBy(asc(matrices.id));
  const groups: MetaGroup[] = (scope === 'consolidations' ? [] : matrixRows).map((m) => ({
    matrixId: m.id,
    consolidationId: null,
    label: m.matrixExpansion,
    specs: specs.filter((s) => s.matrixId === m.id),
  }));
  const members = await tx
    .select({
      id: matrixConsolidations.id,
      name: matrixConsolidations.name,
      matrixId: matrixConsolidationMembers.matrixId,
    })
    .from(matrixConsolidations)
    .innerJoin(
      matrixConsolidationMembers,
      eq(matrixConsolidationMembers.consolidationId, matrixConsolidations.id),
    );
  const consolidations = new Map<number, { name: string; matrixIds: Set<number> }>();
  for (const m of members) {
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
  scope: RecomputeScope = 'all',
): Promise<number> {
  const loaded = await loadMetaGroups(tx, analyteId, scope);
  if (!loaded) return 0;
  const { analyte, groups } = loaded;
  await tx
    .delete(metaCalculations)
    .where(
      and(
        eq(metaCalculations.analyteId, analyteId),
        scope === 'matrices'
          ? isNotNull(metaCalculations.matrixId)
          : scope === 'consolidations'
            ? isNotNull(metaCalculations.matrixConsolidationId)
            : undefined,
      ),
    );

  let written = 0;
  for (const group of groups) {
    for (const type of [':cvi', ':cvg'] as const) {
      const rows = metaInputRows(group.specs, type);
      const result = metaAnalyse(rows);
      if (result.n === 0) continue;
      const [meta] = await tx
        .insert(metaCalculations)
        .values({
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
        })
        .returning({ id: metaCalculations.id });
      const weightOf = new Map(result.studies.map((s) => [s.id, s]));
      // Only usable rows carry include = true (metaEligibility): those, in a study that kept a weight.
      const used = rows.filter((r) => r.include && weightOf.has(String(r.id)));
      if (used.length > 0) {
        await tx.insert(metaCalculationDatasets).values(
          used.map((r) => ({
            metaCalculationId: meta!.id,
            bvSpecificationId: r.specId,
            studyId: String(r.id),
            grade: r.score,
            cv: r.cv!,
            ciLower: r.ciLower!,
            ciUpper: r.ciUpper!,
            weight: weightOf.get(String(r.id))!.normalisedWeight,
          })),
        );
      }
      written++;
    }
  }
  return written;
}

export async function listAnalyteIdsWithDatasets(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: bvSpecifications.analyteId })
    .from(bvSpecifications)
    .where(eq(bvSpecifications.includeInMetaAnalysis, true))
    .orderBy(asc(bvSpecifications.analyteId));
  return rows.map((r) => r.id);
}
