import type { BivacGrades } from '@bvdb/domain';
import type { Tx } from '../../db/client.js';
import { notFound } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { recomputeAnalyteMetas } from '../meta-analysis/recompute/meta-recompute.service.js';
import { gradeColumnsOf, gradesOf } from './dataset-columns.js';
import * as repo from './dataset-write.repository.js';

/**
 * What the appraisal workflow (decision 008) changes on a dataset, inside the workflow's own
 * transaction: its appraisal state, and at the end its 14 grades.
 */

/** A round opens: the dataset is "in appraisal"; its grades (and the meta-analyses) stay as they are. */
export async function markInAppraisal(tx: Tx, datasetId: number): Promise<{ analyteId: number }> {
  const row = await repo.lockDataset(tx, datasetId);
  if (!row) throw notFound(`Dataset ${datasetId}`);
  await repo.updateDatasetRow(tx, datasetId, { appraisalState: 'in_appraisal' });
  return { analyteId: row.analyteId };
}

/**
 * The final grades become the dataset's grades (its overall grade follows by the BIVAC rule, read
 * wherever it is shown), the dataset is final again, and its measurand's meta-analyses are
 * recomputed through the recompute outbox (decision 016) when there is a job queue, else at once.
 */
export async function applyFinalGrades(
  deps: Pick<ServiceDeps, 'jobs'>,
  tx: Tx,
  datasetId: number,
  grades: BivacGrades,
): Promise<{ before: BivacGrades; analyteId: number }> {
  const row = await repo.lockDataset(tx, datasetId);
  if (!row) throw notFound(`Dataset ${datasetId}`);
  await repo.updateDatasetRow(tx, datasetId, {
    ...gradeColumnsOf(grades),
    appraisalState: 'final',
    gradesFinal: true,
    version: row.version + 1,
    updatedAt: new Date(),
  });
  if (deps.jobs) await deps.jobs.requestMetaRecompute(tx, [row.analyteId]);
  else await recomputeAnalyteMetas(tx, row.analyteId);
  return { before: gradesOf(row), analyteId: row.analyteId };
}

/** After the commit: the worker of this process starts on the recompute now. */
export const wakeRecompute = (deps: Pick<ServiceDeps, 'jobs'>): void => deps.jobs?.wake();
