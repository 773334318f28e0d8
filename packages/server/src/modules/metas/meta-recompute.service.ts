import { metaAnalyse, overallGrade, type MetaInputRow } from '@bvdb/domain';
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
import { gradesOf } from '../datasets/datasets.presenter.js';

type Spec = typeof bvSpecifications.$inferSelect;
type VarType = ':cvi' | ':cvg';

/** The CV and CI a dataset contributes: the paper's CI when given, else the calculated one. */
export function estimateOf(spec: Spec, type: VarType) {
  if (type === ':cvi') {
    const reported = spec.reportedCviLower !== null && spec.reportedCviUpper !== null;
    return {
      cv: spec.estimatesOfCvi,
      ciLower: reported ? spec.reportedCviLower : spec.calculatedWithinLower,
      ciUpper: reported ? spec.reportedCviUpper : spec.calculatedWithinUpper,
    };
  }
  const reported = spec.reportedCvgLower !== null && spec.reportedCvgUpper !== null;
  return {
    cv: spec.estimatesOfCvg,
    ciLower: reported ? spec.reportedCvgLower : spec.calculatedBetweenLower,
    ciUpper: reported ? spec.reportedCvgUpper : spec.calculatedBetweenUpper,
  };
}

interface Group {
  matrixId: number | null;
  consolidationId: number | null;
  label: string;
  specs: Spec[];
}

const TYPE_LABEL: Record<VarType, string> = { ':cvi': 'CVI', ':cvg': 'CVG' };

/**
 * Replaces every meta-analysis result of one measurand (each matrix, each consolidation, CVI and
 * CVG) with a fresh computation. Run it inside a transaction: readers see the old or the new set,
 * never half of each, and a retry after a crash produces the same rows.
 */
export type RecomputeScope = 'matrices' | 'consolidations' | 'all';

export async function recomputeAnalyteMetas(
  tx: DbOrTx,
  analyteId: number,
  now = new Date(),
  scope: RecomputeScope = 'all',
): Promise<number> {
  const [analyte] = await tx.select().from(analytes).where(eq(analytes.id, analyteId));
  if (!analyte) return 0;
  const specs = await tx
    .select()
    .from(bvSpecifications)
    .where(eq(bvSpecifications.analyteId, analyteId))
    .orderBy(asc(bvSpecifications.id));
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
  if (specs.length === 0) return 0;

  const matrixRows = await tx
    .select()
    .from(matrices)
    .where(inArray(matrices.id, [...new Set(specs.map((s) => s.matrixId))]));
  const groups: Group[] = (scope === 'consolidations' ? [] : matrixRows).map((m) => ({
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

  let written = 0;
  for (const group of groups) {
    for (const type of [':cvi', ':cvg'] as const) {
      const rows: (MetaInputRow & { specId: number })[] = group.specs.map((s) => {
        const e = estimateOf(s, type);
        const grade = overallGrade(gradesOf(s)) ?? 'D';
        return {
          specId: s.id,
          id: String(s.referenceId),
          include: s.includeInMetaAnalysis,
          score: grade,
          cv: e.cv,
          ciLower: e.ciLower,
          ciUpper: e.ciUpper,
        };
      });
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
      const used = rows.filter(
        (r) =>
          weightOf.has(String(r.id)) &&
          r.include &&
          r.cv !== null &&
          r.ciLower !== null &&
          r.ciUpper !== null &&
          r.score !== 'D',
      );
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
