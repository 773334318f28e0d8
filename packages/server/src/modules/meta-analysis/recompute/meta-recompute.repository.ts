import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { bvSpecifications, metaCalculationDatasets, metaCalculations } from '../../../db/schema.js';

export type RecomputeScope = 'matrices' | 'consolidations' | 'all';
export type MetaRow = typeof metaCalculations.$inferSelect;
export type MetaDatasetRow = typeof metaCalculationDatasets.$inferSelect;

/** The datasets of these measurands, in id order. */
export async function listSpecsOfAnalytes(tx: DbOrTx, analyteIds: number[]) {
  if (analyteIds.length === 0) return [];
  return tx
    .select()
    .from(bvSpecifications)
    .where(inArray(bvSpecifications.analyteId, analyteIds))
    .orderBy(asc(bvSpecifications.id));
}

const scopeFilter = (scope: RecomputeScope) =>
  scope === 'matrices'
    ? isNotNull(metaCalculations.matrixId)
    : scope === 'consolidations'
      ? isNotNull(metaCalculations.matrixConsolidationId)
      : undefined;

/** These measurands' stored results of the scope, each with the dataset links it was computed from. */
export async function listMetasOfAnalytes(
  tx: DbOrTx,
  analyteIds: number[],
  scope: RecomputeScope,
): Promise<{ meta: MetaRow; datasets: MetaDatasetRow[] }[]> {
  if (analyteIds.length === 0) return [];
  const metas = await tx
    .select()
    .from(metaCalculations)
    .where(and(inArray(metaCalculations.analyteId, analyteIds), scopeFilter(scope)));
  if (metas.length === 0) return [];
  const links = await tx
    .select()
    .from(metaCalculationDatasets)
    .where(
      inArray(
        metaCalculationDatasets.metaCalculationId,
        metas.map((m) => m.id),
      ),
    );
  const linksOf = new Map<number, MetaDatasetRow[]>();
  for (const l of links) {
    const list = linksOf.get(l.metaCalculationId);
    if (list) list.push(l);
    else linksOf.set(l.metaCalculationId, [l]);
  }
  return metas.map((meta) => ({ meta, datasets: linksOf.get(meta.id) ?? [] }));
}

/** Deletes results by id (their dataset links go with them, on delete cascade). */
export async function deleteMetas(tx: DbOrTx, ids: number[]) {
  if (ids.length > 0) await tx.delete(metaCalculations).where(inArray(metaCalculations.id, ids));
}

export async function insertMeta(tx: DbOrTx, values: typeof metaCalculations.$inferInsert) {
  const [row] = await tx.insert(metaCalculations).values(values).returning({ id: metaCalculations.id });
  return row!.id;
}

export async function updateMeta(
  tx: DbOrTx,
  id: number,
  values: Partial<typeof metaCalculations.$inferInsert>,
) {
  await tx.update(metaCalculations).set(values).where(eq(metaCalculations.id, id));
}

/** Stamps the recompute time on results whose values did not change (their updated_at stays). */
export async function touchComputedAt(tx: DbOrTx, ids: number[], now: Date) {
  if (ids.length > 0) {
    await tx.update(metaCalculations).set({ computedAt: now }).where(inArray(metaCalculations.id, ids));
  }
}

export async function replaceMetaDatasets(
  tx: DbOrTx,
  metaId: number,
  rows: (typeof metaCalculationDatasets.$inferInsert)[],
) {
  await tx.delete(metaCalculationDatasets).where(eq(metaCalculationDatasets.metaCalculationId, metaId));
  if (rows.length > 0) await tx.insert(metaCalculationDatasets).values(rows);
}

export async function listAnalyteIdsWithDatasets(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: bvSpecifications.analyteId })
    .from(bvSpecifications)
    .where(eq(bvSpecifications.includeInMetaAnalysis, true))
    .orderBy(asc(bvSpecifications.analyteId));
  return rows.map((r) => r.id);
}

export async function listAnalyteIdsToRecompute(db: DbOrTx): Promise<number[]> {
  const withDatasets = await listAnalyteIdsWithDatasets(db);
  const withResults = await db.selectDistinct({ id: metaCalculations.analyteId }).from(metaCalculations);
  return [...new Set([...withDatasets, ...withResults.map((r) => r.id)])].sort((a, b) => a - b);
}
