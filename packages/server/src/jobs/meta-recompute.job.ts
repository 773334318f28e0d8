import type { Db } from '../db/client.js';
import { bumpDataGeneration } from '../lib/app-state.repository.js';
import {
  listAnalyteIdsWithDatasets,
  recomputeAnalyteMetas,
  type RecomputeScope,
} from '../modules/metas/meta-recompute.service.js';
import { markFinished, markProgress, markStarted } from './job-records.repository.js';

export const META_JOB_NAMES = {
  matrices: 'Calculating Meta-Analysis',
  consolidations: 'Calculating Consolidated Metas',
} as const;

export interface MetaRecomputePayload {
  jobId: number;
  scope: Exclude<RecomputeScope, 'all'>;
  /** Only these measurands; all with datasets when absent. */
  analyteIds?: number[];
}

/**
 * Recomputes the meta-analyses of each measurand in its own transaction, recording progress after
 * each. Idempotent: a retry after a crash recomputes from the datasets and replaces what is there,
 * so it ends with the same rows and no duplicates.
 */
export async function runMetaRecompute(
  db: Db,
  payload: MetaRecomputePayload,
  onCommitted: () => void,
): Promise<void> {
  const ids = payload.analyteIds ?? (await listAnalyteIdsWithDatasets(db));
  await markStarted(db, payload.jobId, ids.length, 'Starting');
  try {
    let done = 0;
    for (const analyteId of ids) {
      await db.transaction(async (tx) => {
        await recomputeAnalyteMetas(tx, analyteId, new Date(), payload.scope);
        await bumpDataGeneration(tx);
      });
      onCommitted();
      done++;
      await markProgress(db, payload.jobId, done, `Measurand ${done} of ${ids.length}`);
    }
    await markFinished(db, payload.jobId, 'complete');
  } catch (err) {
    await markFinished(db, payload.jobId, 'failed', err instanceof Error ? err.message : String(err));
    throw err;
  }
}
