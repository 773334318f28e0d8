import { and, count, desc, eq, inArray, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { estimates, estimateVersions } from '../../db/schema.js';

export type EstimateRow = typeof estimates.$inferSelect;
export type VersionRow = typeof estimateVersions.$inferSelect;
export type NewVersionRow = typeof estimateVersions.$inferInsert;
export type NewEstimateRow = typeof estimates.$inferInsert;

/** The estimates of these measurands (every matrix, consolidation and type). */
export async function listEstimatesOfAnalytes(db: DbOrTx, analyteIds: number[]): Promise<EstimateRow[]> {
  if (analyteIds.length === 0) return [];
  return db.select().from(estimates).where(inArray(estimates.analyteId, analyteIds));
}

export async function findEstimate(db: DbOrTx, id: number): Promise<EstimateRow | undefined> {
  const [row] = await db.select().from(estimates).where(eq(estimates.id, id));
  return row;
}

/** The latest version of each of these estimates (one query: DISTINCT ON the estimate). */
export async function listLatestVersions(db: DbOrTx, estimateIds: number[]): Promise<VersionRow[]> {
  if (estimateIds.length === 0) return [];
  return db
    .selectDistinctOn([estimateVersions.estimateId])
    .from(estimateVersions)
    .where(inArray(estimateVersions.estimateId, estimateIds))
    .orderBy(estimateVersions.estimateId, desc(estimateVersions.version));
}

/** Each estimate (of one measurand, or of all) with the version in force at `asOf` (none: not listed). */
export async function listVersionsAsOf(db: DbOrTx, asOf: Date, analyteId?: number) {
  return db
    .selectDistinctOn([estimateVersions.estimateId], { estimate: estimates, version: estimateVersions })
    .from(estimateVersions)
    .innerJoin(estimates, eq(estimates.id, estimateVersions.estimateId))
    .where(
      and(
        analyteId === undefined ? undefined : eq(estimates.analyteId, analyteId),
        lte(estimateVersions.computedAt, asOf),
      ),
    )
    .orderBy(estimateVersions.estimateId, desc(estimateVersions.version));
}

export async function insertEstimates(tx: DbOrTx, rows: NewEstimateRow[]): Promise<EstimateRow[]> {
  if (rows.length === 0) return [];
  return tx.insert(estimates).values(rows).returning();
}

export async function insertVersions(tx: DbOrTx, rows: NewVersionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await tx.insert(estimateVersions).values(rows.slice(i, i + 500));
  }
}

/** One page of an estimate's versions, newest first. */
export function listVersions(db: DbOrTx, estimateId: number, limit: number, offset: number) {
  return db
    .select()
    .from(estimateVersions)
    .where(eq(estimateVersions.estimateId, estimateId))
    .orderBy(desc(estimateVersions.version))
    .limit(limit)
    .offset(offset);
}

export async function countVersions(db: DbOrTx, estimateId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(estimateVersions)
    .where(eq(estimateVersions.estimateId, estimateId));
  return row?.n ?? 0;
}

/** How many versions there are in all (tests and the bench: a recompute that changes nothing adds none). */
export async function countAllVersions(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: count() }).from(estimateVersions);
  return row?.n ?? 0;
}
