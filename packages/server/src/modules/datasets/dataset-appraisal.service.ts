import type { Role } from '@bvdb/contract';
import type { BivacGrades } from '@bvdb/domain';
import type { Tx } from '../../db/client.js';
import { notFound } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
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
 * wherever it is shown), the dataset is final again, and the recompute of its measurand's
 * meta-analyses is asked for through the door (decision 048), cause `appraisal` by the role of the
 * assessor whose submission made the round final.
 */
export async function applyFinalGrades(
  deps: Pick<ServiceDeps, 'recompute'>,
  tx: Tx,
  datasetId: number,
  grades: BivacGrades,
  role: Role,
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
  await deps.recompute.request(tx, {
    analyteIds: [row.analyteId],
    cause: { kind: 'appraisal', datasetId, role },
  });
  return { before: gradesOf(row), analyteId: row.analyteId };
}
