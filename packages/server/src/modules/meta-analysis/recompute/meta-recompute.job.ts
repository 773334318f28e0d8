import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { bumpDataGeneration } from '../../../lib/app-state.repository.js';
import { markFinished, markProgress, markStarted } from '../jobs/job-records.service.js';
import { listAnalyteIdsWithDatasets, recomputeAnalyteMetas } from './meta-recompute.service.js';

export const META_JOB_NAMES = {
  matrices: 'Calculating Meta-Analysis',
  consolidations: 'Calculating Consolidated Metas',
} as const;

const MetaRecomputePayloadSchema = z.object({
  /** Our job record (the tracker's row). */
  jobId: z.number().int().positive(),
  scope: z.enum(['matrices', 'consolidations']),
  /** Only these measurands; all with datasets when absent. */
  analyteIds: z.array(z.number().int().positive()).optional(),
});
export type MetaRecomputePayload = z.infer<typeof MetaRecomputePayloadSchema>;

/**
 * The worker's entry. The payload was written by another process, maybe another version, so it is
 * checked before anything runs; a bad one fails with what was wrong, and so does its job record
 * when the payload names one (else the tracker would show it queued for ever).
 */
export async function workMetaRecompute(db: Db, data: unknown, onCommitted: () => void): Promise<void> {
  const parsed = MetaRecomputePayloadSchema.safeParse(data);
  if (!parsed.success) {
    const message = `Invalid meta-recompute job payload: ${z.prettifyError(parsed.error)}`;
    const jobId = MetaRecomputePayloadSchema.shape.jobId.safeParse(
      (data as { jobId?: unknown } | null)?.jobId,
    );
    if (jobId.success) await markFinished(db, jobId.data, 'failed', message);
    throw new Error(message);
  }
  await runMetaRecompute(db, parsed.data, onCommitted);
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
