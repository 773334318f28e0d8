import type { DbOrTx } from '../../db/client.js';
import * as repo from './job-records.repository.js';

/** How a running job reports itself in the job tracker (the records' face for the recompute job). */
export const markStarted = (db: DbOrTx, id: number, max: number, stage: string) =>
  repo.markStarted(db, id, max, stage);

export const markProgress = (db: DbOrTx, id: number, current: number, stage: string) =>
  repo.markProgress(db, id, current, stage);

export const markFinished = (db: DbOrTx, id: number, status: 'complete' | 'failed', error?: string) =>
  repo.markFinished(db, id, status, error);
