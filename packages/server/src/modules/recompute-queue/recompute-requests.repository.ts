import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { metaRecomputeRequests as q } from '../../db/schema.js';

/** An int[] parameter, as an array literal (drivers differ in how they send a JS array). */
const intArray = (ids: number[]) => sql`${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::int[]`;

export interface ClaimedRequest {
  analyteId: number;
  generation: number;
  jobIds: number[];
  attempts: number;
  /** Why it was asked for: what a version of the measurand's estimates will name (decision 048). */
  cause: StoredCause | null;
}

/** Why a request was made, as stored (decision 048); null for a leftover job of the former queue. */
export interface StoredCause {
  kind: string;
  datasetId: number | null;
  role: string;
}

/**
 * Asks for a recompute of these measurands, counted by the tracker record `jobId` (when given).
 * One row per measurand: a second request before the first ran merges into it, and its cause
 * becomes the row's (the latest change is the one a reader will see).
 */
export async function upsertRequests(
  tx: DbOrTx,
  analyteIds: number[],
  jobId: number | null,
  cause: StoredCause | null,
) {
  if (analyteIds.length === 0) return;
  const jobIds = jobId === null ? sql`'{}'::int[]` : sql`array[${jobId}::int]`;
  const causeColumns = {
    causeKind: cause?.kind ?? null,
    causeDatasetId: cause?.datasetId ?? null,
    causeRole: cause?.role ?? null,
  };
  // A statement per slice, the event loop let go between them: one statement of every measurand at
  // 100× the demo data (7,100 rows) held the loop ~200 ms while the ORM built it (issue 44.1).
  for (let from = 0; from < analyteIds.length; from += UPSERT_SLICE) {
    if (from > 0) await new Promise((resolve) => setImmediate(resolve));
    await tx
      .insert(q)
      .values(
        analyteIds
          .slice(from, from + UPSERT_SLICE)
          .map((analyteId) => ({ analyteId, jobIds: jobId === null ? [] : [jobId], ...causeColumns })),
      )
      .onConflictDoUpdate({
        target: q.analyteId,
        set: {
          generation: sql`${q.generation} + 1`,
          jobIds: sql`array(select distinct j from unnest(${q.jobIds} || ${jobIds}) as j order by j)`,
          attempts: 0,
          ...(cause ? causeColumns : {}),
        },
      });
  }
}

/** Measurands per upsert statement. */
const UPSERT_SLICE = 500;

/** The requests waiting, with their causes (tests, and later the estimates' history). */
export function listRequests(db: DbOrTx) {
  return db
    .select({
      analyteId: q.analyteId,
      causeKind: q.causeKind,
      causeDatasetId: q.causeDatasetId,
      causeRole: q.causeRole,
    })
    .from(q)
    .orderBy(q.analyteId);
}

/**
 * Claims up to `limit` due requests for `worker` until `leaseSeconds` from now: unclaimed ones and
 * those whose claim lapsed (a killed worker), oldest first; rows another worker is claiming right
 * now are skipped, not waited for.
 */
export async function claimRequests(
  db: DbOrTx,
  worker: string,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedRequest[]> {
  type Row = {
    analyte_id: number;
    generation: number;
    job_ids: number[];
    attempts: number;
    cause_kind: string | null;
    cause_dataset_id: number | null;
    cause_role: string | null;
  };
  const res = await db.execute<Row>(sql`
    update ${q} set claimed_by = ${worker}, claimed_until = now() + make_interval(secs => ${leaseSeconds})
    where analyte_id in (
      select analyte_id from ${q}
      where claimed_until is null or claimed_until < now()
      order by requested_at, analyte_id
      limit ${limit}
      for update skip locked
    )
    returning analyte_id, generation, job_ids, attempts, cause_kind, cause_dataset_id, cause_role`);
  return (res as { rows: Row[] }).rows
    .map((r) => ({
      analyteId: r.analyte_id,
      generation: r.generation,
      jobIds: r.job_ids,
      attempts: r.attempts,
      cause:
        r.cause_kind === null
          ? null
          : { kind: r.cause_kind, datasetId: r.cause_dataset_id, role: r.cause_role ?? 'system' },
    }))
    .sort((a, b) => a.analyteId - b.analyteId);
}

/** The worker is alive: its claims on these measurands last another lease. */
export async function extendClaims(db: DbOrTx, worker: string, analyteIds: number[], leaseSeconds: number) {
  if (analyteIds.length === 0) return;
  await db
    .update(q)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(eq(q.claimedBy, worker), inArray(q.analyteId, analyteIds)));
}

/**
 * Done with the requests as claimed: gone, in one statement, unless asked again meanwhile (a newer
 * generation); such a request is released for another run, without the tracker records this run
 * counted.
 */
export async function finishRequests(tx: DbOrTx, rs: ClaimedRequest[]) {
  if (rs.length === 0) return;
  const gone = await tx
    .delete(q)
    .where(
      sql`(${q.analyteId}, ${q.generation}) in (select * from unnest(${intArray(rs.map((r) => r.analyteId))}, ${intArray(rs.map((r) => r.generation))}))`,
    )
    .returning({ analyteId: q.analyteId });
  const deleted = new Set(gone.map((g) => g.analyteId));
  for (const r of rs) {
    if (deleted.has(r.analyteId)) continue;
    await tx
      .update(q)
      .set({
        claimedBy: null,
        claimedUntil: null,
        attempts: 0,
        jobIds: sql`array(select j from unnest(${q.jobIds}) as j where j <> all(${intArray(r.jobIds)}) order by j)`,
      })
      .where(eq(q.analyteId, r.analyteId));
  }
}

export const finishRequest = (tx: DbOrTx, r: ClaimedRequest) => finishRequests(tx, [r]);

/** A failed attempt: retried after `retryDelaySeconds`, or dropped after `maxAttempts`. */
export async function failRequest(
  db: DbOrTx,
  r: ClaimedRequest,
  error: string,
  maxAttempts: number,
  retryDelaySeconds: number,
): Promise<'retry' | 'dropped'> {
  if (r.attempts + 1 >= maxAttempts) {
    await db.delete(q).where(eq(q.analyteId, r.analyteId));
    return 'dropped';
  }
  await db
    .update(q)
    .set({
      attempts: r.attempts + 1,
      lastError: error,
      claimedUntil: sql`now() + make_interval(secs => ${retryDelaySeconds})`,
    })
    .where(eq(q.analyteId, r.analyteId));
  return 'retry';
}

/** Claims of workers that cannot be alive any more (the embedded database has one process). */
export async function releaseAllClaims(db: DbOrTx) {
  await db.update(q).set({ claimedBy: null, claimedUntil: null });
}

export async function countRequests(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(q);
  return row?.n ?? 0;
}
