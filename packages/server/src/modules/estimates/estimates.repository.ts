import { and, count, desc, eq, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { idIn } from '../../db/id-in.js';
import { estimates, estimateVersions } from '../../db/schema.js';

export type EstimateRow = typeof estimates.$inferSelect;
export type VersionRow = typeof estimateVersions.$inferSelect;
export type NewVersionRow = typeof estimateVersions.$inferInsert;
export type NewEstimateRow = typeof estimates.$inferInsert;

/** The estimates of these measurands (every matrix, consolidation and type). */
export async function listEstimatesOfAnalytes(db: DbOrTx, analyteIds: number[]): Promise<EstimateRow[]> {
  if (analyteIds.length === 0) return [];
  return db.select().from(estimates).where(idIn(estimates.analyteId, analyteIds));
}

/**
 * Each estimate of these measurands that has a version, with its key and latest version number:
 * what a kept catalogue compares (a narrow answer, where the estimates and their versions in full
 * were 20,000 wide rows each at 100× the demo, issue 44.1).
 */
export async function listLatestVersionNumbers(db: DbOrTx, analyteIds: number[]) {
  if (analyteIds.length === 0) return [];
  return db
    .selectDistinctOn([estimateVersions.estimateId], {
      estimateId: estimateVersions.estimateId,
      version: estimateVersions.version,
      analyteId: estimates.analyteId,
      matrixId: estimates.matrixId,
      matrixConsolidationId: estimates.matrixConsolidationId,
      varType: estimates.varType,
    })
    .from(estimateVersions)
    .innerJoin(estimates, eq(estimates.id, estimateVersions.estimateId))
    .where(idIn(estimates.analyteId, analyteIds))
    .orderBy(estimateVersions.estimateId, desc(estimateVersions.version));
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
    .where(idIn(estimateVersions.estimateId, estimateIds))
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

/**
 * Measurands with a shown result that its estimate's latest version does not say (issue 43.14):
 * no estimate or no version yet, a withdrawn one, or other numbers, method or count. What a
 * previous release writes during a rolling upgrade (results, no versions) is found here.
 */
export async function listAnalytesWithUnversionedResults(db: DbOrTx): Promise<number[]> {
  const res = await db.execute(sql`
    select distinct m.analyte_id as id
    from meta_calculations m
    left join estimates e
      on e.analyte_id = m.analyte_id
     and e.matrix_id is not distinct from m.matrix_id
     and e.matrix_consolidation_id is not distinct from m.matrix_consolidation_id
     and e.var_type = m.var_type
    left join lateral (
      select v.withdrawn, v.median, v.lower, v.upper, v.method, v.number_used
      from estimate_versions v where v.estimate_id = e.id order by v.version desc limit 1
    ) v on true
    where m.median is not null
      and (e.id is null or v.withdrawn is null or v.withdrawn
        or v.median is distinct from m.median or v.lower is distinct from m.lower
        or v.upper is distinct from m.upper or v.method <> m.method
        or v.number_used <> m.number_used)
    order by 1`);
  return ((res as { rows?: { id: number }[] }).rows ?? []).map((r) => Number(r.id));
}
