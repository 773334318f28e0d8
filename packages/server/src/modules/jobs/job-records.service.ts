import type { DbOrTx } from '../../db/client.js';
import * as repo from './job-records.repository.js';

/**
 * The job tracker's records as the recompute queue keeps them: a tracker made with a recompute
 * request, advanced as its measurands are done, and how a running job reports itself.
 */
export const insertTracker = (
  db: DbOrTx,
  values: { name: string; queue: string; className: string; payload: unknown; max: number },
) => repo.insertTracker(db, values);

/** One step per finished measurand (an id given k times advances k steps). */
export const advanceTrackers = (db: DbOrTx, ids: number[]) => repo.advanceTrackers(db, ids);

/** Marks the trackers still queued or working as failed, with the reason. */
export const failTrackers = (db: DbOrTx, ids: number[], error: string) => repo.failTrackers(db, ids, error);

/** A tracker record by id (undefined when there is none). */
export const findJobRecord = (db: DbOrTx, id: number) => repo.findJob(db, id);

export const markStarted = (db: DbOrTx, id: number, max: number, stage: string) =>
  repo.markStarted(db, id, max, stage);

export const markProgress = (db: DbOrTx, id: number, current: number, stage: string) =>
  repo.markProgress(db, id, current, stage);

export const markFinished = (db: DbOrTx, id: number, status: 'complete' | 'failed', error?: string) =>
  repo.markFinished(db, id, status, error);
