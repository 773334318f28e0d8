import { AppError, notFound } from '../../../lib/app-error.js';
import type { ServiceDeps } from '../../../lib/service-deps.js';
import { META_JOB_NAMES } from '../recompute/meta-recompute.job.js';
import * as repo from './job-records.repository.js';

type Deps = Pick<ServiceDeps, 'db'>;

export async function findJob(deps: Deps, id: number) {
  const job = await repo.findJob(deps.db, id);
  if (!job) throw notFound(`Job ${id}`);
  return job;
}

export const listRecentJobs = (deps: Deps) => repo.listJobs(deps.db);

/**
 * The last run of each recompute job, for the curators' tracker. One job now recomputes matrices
 * and consolidations together (decision 016): the consolidated section shows it too unless an
 * older-style consolidated record is newer.
 */
export async function latestMetaJobs(deps: Deps) {
  const meta = await repo.latestJobNamed(deps.db, META_JOB_NAMES.matrices);
  const consolidated = await repo.latestJobNamed(deps.db, META_JOB_NAMES.consolidations);
  return { meta, consolidated: consolidated && (!meta || consolidated.id > meta.id) ? consolidated : meta };
}

/**
 * Queues the recomputation of the matrices' and the consolidations' results (all measurands when no
 * ids): one tracker record, returned for both.
 */
export async function startMetaRecompute(deps: Pick<ServiceDeps, 'db' | 'jobs'>, analyteIds?: number[]) {
  const { jobs } = deps;
  if (!jobs?.isStarted) throw new AppError('unavailable', 'The job queue is not running on this server');
  const tracker = await deps.db.transaction((tx) => jobs.requestMetaRecompute(tx, analyteIds));
  jobs.wake();
  const job = await findJob(deps, tracker.id);
  return { meta: job, consolidated: job };
}
