import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { localEstimates, matrices } from '../../db/schema.js';

export type NewLocalEstimate = typeof localEstimates.$inferInsert;

const select = (db: DbOrTx) =>
  db
    .select({ estimate: localEstimates, matrixName: matrices.matrixExpansion })
    .from(localEstimates)
    .leftJoin(matrices, eq(matrices.id, localEstimates.matrixId));

export type LocalEstimateRow = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];

export const listLocalEstimatesOf = (db: DbOrTx, analyteId: number) =>
  select(db)
    .where(eq(localEstimates.analyteId, analyteId))
    .orderBy(desc(localEstimates.createdAt), desc(localEstimates.id));

export async function findLocalEstimate(db: DbOrTx, id: number): Promise<LocalEstimateRow | undefined> {
  const [row] = await select(db).where(eq(localEstimates.id, id));
  return row;
}

/** The row, locked until the transaction ends (an edit or a delete checks its version first). */
export async function lockLocalEstimate(db: DbOrTx, id: number): Promise<LocalEstimateRow | undefined> {
  const [row] = await select(db).where(eq(localEstimates.id, id)).for('update', { of: localEstimates });
  return row;
}

export async function insertLocalEstimate(db: DbOrTx, row: NewLocalEstimate): Promise<LocalEstimateRow> {
  const [inserted] = await db.insert(localEstimates).values(row).returning({ id: localEstimates.id });
  return (await findLocalEstimate(db, inserted!.id))!;
}

export type LocalEstimateLabels = Partial<Pick<NewLocalEstimate, 'laboratory' | 'period' | 'note'>>;

/** Writes the labels, moves the version on by one and dates the edit. */
export async function updateLocalEstimate(
  db: DbOrTx,
  id: number,
  labels: LocalEstimateLabels,
): Promise<LocalEstimateRow> {
  await db
    .update(localEstimates)
    .set({ ...labels, version: sql`${localEstimates.version} + 1`, updatedAt: sql`now()` })
    .where(eq(localEstimates.id, id));
  return (await findLocalEstimate(db, id))!;
}

export async function deleteLocalEstimate(db: DbOrTx, id: number): Promise<void> {
  await db.delete(localEstimates).where(eq(localEstimates.id, id));
}
