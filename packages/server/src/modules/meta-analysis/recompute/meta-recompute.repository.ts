import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { bvSpecifications, metaCalculationDatasets, metaCalculations } from '../../../db/schema.js';

export type RecomputeScope = 'matrices' | 'consolidations' | 'all';

export async function listSpecsOfAnalyte(tx: DbOrTx, analyteId: number) {
  return tx
    .select()
    .from(bvSpecifications)
    .where(eq(bvSpecifications.analyteId, analyteId))
    .orderBy(asc(bvSpecifications.id));
}

/** Deletes a measurand's results of the scope (their dataset links go with them, on delete cascade). */
export async function deleteMetasOfAnalyte(tx: DbOrTx, analyteId: number, scope: RecomputeScope) {
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
}

export async function insertMeta(tx: DbOrTx, values: typeof metaCalculations.$inferInsert) {
  const [row] = await tx.insert(metaCalculations).values(values).returning({ id: metaCalculations.id });
  return row!.id;
}

export async function insertMetaDatasets(tx: DbOrTx, rows: (typeof metaCalculationDatasets.$inferInsert)[]) {
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
