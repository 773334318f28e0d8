import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { jobs } from '../../../db/schema.js';

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
