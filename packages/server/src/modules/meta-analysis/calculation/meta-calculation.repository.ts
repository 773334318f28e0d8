import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { bvSpecifications, metaCalculationDatasets, metaCalculations } from '../../../db/schema.js';

export type RecomputeScope = 'matrices' | 'consolidations' | 'all';
export type MetaRow = typeof metaCalculations.$inferSelect;
export type MetaDatasetRow = typeof metaCalculationDatasets.$inferSelect;

export async function listSpecsOfAnalyte(tx: DbOrTx, analyteId: number) {
  return tx
    .select()
    .from(bvSpecifications)
    .where(eq(bvSpecifications.analyteId, analyteId))
    .orderBy(asc(bvSpecifications.id));
}

/** The datasets of many measurands, by id. */
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

/** Measurands' stored results of the scope, each with the dataset links it was computed from. */
export async function listMetasOfAnalytes(
  tx: DbOrTx,
  analyteIds: number[],
  scope: RecomputeScope,
): Promise<{ meta: MetaRow; datasets: MetaDatasetRow[] }[]> {
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
    const list = linksOf.get(l.metaCalculationId) ?? [];
    list.push(l);
    linksOf.set(l.metaCalculationId, list);
  }
  return metas.map((meta) => ({ meta, datasets: linksOf.get(meta.id) ?? [] }));
}

export type NewMetaRow = typeof metaCalculations.$inferInsert;

/** Rows of a multi-row insert: PostgreSQL takes at most 65,535 parameters in one statement. */
const chunksOf = <T>(rows: T[], columns: number): T[][] => {
  const size = Math.max(1, Math.floor(60_000 / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
};

/** Inserts results; their new ids, in the order given. */
export async function insertMetas(tx: DbOrTx, rows: NewMetaRow[]): Promise<number[]> {
  const ids: number[] = [];
  for (const chunk of chunksOf(rows, 20)) {
    const inserted = await tx.insert(metaCalculations).values(chunk).returning({
      id: metaCalculations.id,
      analyteId: metaCalculations.analyteId,
      matrixId: metaCalculations.matrixId,
      consolidationId: metaCalculations.matrixConsolidationId,
      varType: metaCalculations.varType,
    });
    // Matched by their unique key, not by the order RETURNING happens to use.
    const idOf = new Map(
      inserted.map((r) => [`${r.analyteId}|${r.matrixId}|${r.consolidationId}|${r.varType}`, r.id]),
    );
    for (const r of chunk) {
      ids.push(
        idOf.get(`${r.analyteId}|${r.matrixId ?? null}|${r.matrixConsolidationId ?? null}|${r.varType}`)!,
      );
    }
  }
  return ids;
}

/** Replaces the dataset links of these results (two statements for all of them). */
export async function replaceMetaDatasetsOf(
  tx: DbOrTx,
  sets: { metaId: number; links: Omit<typeof metaCalculationDatasets.$inferInsert, 'metaCalculationId'>[] }[],
) {
  if (sets.length === 0) return;
  await tx.delete(metaCalculationDatasets).where(
    inArray(
      metaCalculationDatasets.metaCalculationId,
      sets.map((s) => s.metaId),
    ),
  );
  const rows = sets.flatMap((s) => s.links.map((l) => ({ ...l, metaCalculationId: s.metaId })));
  for (const chunk of chunksOf(rows, 8)) await tx.insert(metaCalculationDatasets).values(chunk);
}

/** Deletes results by id (their dataset links go with them, on delete cascade). */
export async function deleteMetas(tx: DbOrTx, ids: number[]) {
  if (ids.length > 0) await tx.delete(metaCalculations).where(inArray(metaCalculations.id, ids));
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
