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

/** The last run of each recompute job, for the curators' tracker. */
export async function latestMetaJobs(deps: Deps) {
  const [meta, consolidated] = await Promise.all([
    repo.latestJobNamed(deps.db, META_JOB_NAMES.matrices),
    repo.latestJobNamed(deps.db, META_JOB_NAMES.consolidations),
  ]);
  return { meta, consolidated };
}

/** Queues the recomputation of the matrices' and the consolidations' results (all measurands when no ids). */
export async function startMetaRecompute(deps: Pick<ServiceDeps, 'db' | 'jobs'>, analyteIds?: number[]) {
  const { jobs } = deps;
  if (!jobs?.isStarted) throw new AppError('unavailable', 'The job queue is not running on this server');
  const meta = await jobs.enqueueMetaRecompute('matrices', analyteIds);
  const consolidated = await jobs.enqueueMetaRecompute('consolidations', analyteIds);
  const [m, c] = await Promise.all([findJob(deps, meta.id), findJob(deps, consolidated.id)]);
  return { meta: m, consolidated: c };
}
