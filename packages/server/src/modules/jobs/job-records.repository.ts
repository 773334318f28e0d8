import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { jobs } from '../../db/schema.js';

export type JobRow = typeof jobs.$inferSelect;

export async function insertJob(
  db: DbOrTx,
  values: { name: string; queue: string; className: string; payload: unknown },
) {
  const [row] = await db
    .insert(jobs)
    .values({ ...values, status: 'queued' })
    .returning();
  return row!;
}

export async function setJid(db: DbOrTx, id: number, jid: string) {
  await db.update(jobs).set({ jid, updatedAt: new Date() }).where(eq(jobs.id, id));
}

export async function markStarted(db: DbOrTx, id: number, max: number, stage: string) {
  await db
    .update(jobs)
    .set({
      status: 'working',
      startedAt: sql`coalesce(${jobs.startedAt}, now())`,
      progressStage: stage,
      progressCurrent: 0,
      progressMax: max,
      error: null,
      updatedAt: new Date(),
    })
    .where(eq(jobs.id, id));
}

export async function markProgress(db: DbOrTx, id: number, current: number, stage: string) {
  await db
    .update(jobs)
    .set({ progressCurrent: current, progressStage: stage, updatedAt: new Date() })
    .where(eq(jobs.id, id));
}

export async function markFinished(db: DbOrTx, id: number, status: 'complete' | 'failed', error?: string) {
  await db
    .update(jobs)
    .set({
      status,
      finishedAt: new Date(),
      progressStage: status === 'complete' ? 'Done' : 'Failed',
      ...(status === 'complete' ? { progressCurrent: sql`${jobs.progressMax}` } : {}),
      error: error ?? null,
      updatedAt: new Date(),
    })
    .where(eq(jobs.id, id));
}

export async function findJob(db: DbOrTx, id: number) {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

export async function listJobs(db: DbOrTx, limit = 100) {
  return db.select().from(jobs).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(limit);
}

export async function latestJobNamed(db: DbOrTx, name: string) {
  const [row] = await db.select().from(jobs).where(eq(jobs.name, name)).orderBy(desc(jobs.id)).limit(1);
  return row;
}

/** A tracker record that counts `max` measurands, queued (complete at once when there are none). */
export async function insertTracker(
  db: DbOrTx,
  values: { name: string; queue: string; className: string; payload: unknown; max: number },
) {
  const { max, ...rest } = values;
  const done = max === 0;
  const [row] = await db
    .insert(jobs)
    .values({
      ...rest,
      status: done ? 'complete' : 'queued',
      progressMax: max,
      progressStage: done ? 'Done' : 'Queued',
      ...(done ? { startedAt: new Date(), finishedAt: new Date() } : {}),
    })
    .returning();
  return row!;
}

/** One more measurand done for each of these tracker records; complete when all are. */
/**
 * Each finished measurand advances every tracker record that asked for it: an id given k times (k
 * measurands of one record finished in one transaction) advances that record by k, in one statement
 * per distinct k (one, usually, for a whole chunk).
 */
export async function advanceTrackers(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return;
  const countOf = new Map<number, number>();
  for (const id of ids) countOf.set(id, (countOf.get(id) ?? 0) + 1);
  const idsByCount = new Map<number, number[]>();
  for (const [id, k] of countOf) idsByCount.set(k, [...(idsByCount.get(k) ?? []), id]);
  for (const [k, group] of idsByCount) {
    const next = sql`${jobs.progressCurrent} + ${k}::int`;
    await db
      .update(jobs)
      .set({
        progressCurrent: sql`least(${next}, ${jobs.progressMax})`,
        status: sql`case when ${next} >= ${jobs.progressMax} then 'complete' else 'working' end`,
        progressStage: sql`case when ${next} >= ${jobs.progressMax} then 'Done'
          else 'Measurand ' || (${next}) || ' of ' || ${jobs.progressMax} end`,
        startedAt: sql`coalesce(${jobs.startedAt}, now())`,
        finishedAt: sql`case when ${next} >= ${jobs.progressMax} then now() else null end`,
        updatedAt: new Date(),
      })
      .where(and(inArray(jobs.id, group), inArray(jobs.status, ['queued', 'working'])));
  }
}

export async function failTrackers(db: DbOrTx, ids: number[], error: string) {
  if (ids.length === 0) return;
  await db
    .update(jobs)
    .set({ status: 'failed', progressStage: 'Failed', error, finishedAt: new Date(), updatedAt: new Date() })
    .where(and(inArray(jobs.id, ids), inArray(jobs.status, ['queued', 'working'])));
}
