import { desc, eq } from 'drizzle-orm';
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

export async function insertLocalEstimate(db: DbOrTx, row: NewLocalEstimate): Promise<LocalEstimateRow> {
  const [inserted] = await db.insert(localEstimates).values(row).returning({ id: localEstimates.id });
  const [read] = await select(db).where(eq(localEstimates.id, inserted!.id));
  return read!;
}
