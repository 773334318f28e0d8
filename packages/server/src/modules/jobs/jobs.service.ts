import { notFound } from '../../lib/app-error.js';
import type { Actor } from '../../lib/actor.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { META_JOB_NAMES } from './legacy-jobs.js';
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
 * A curator asks for the recomputation of the matrices' and the consolidations' results (all
 * measurands when no ids) through the door, cause `lookup` (decision 048: the button is how a
 * change of the lookups — a matrix consolidation, say — reaches the estimates): one tracker record,
 * returned for both.
 */
export async function startMetaRecompute(
  deps: Pick<ServiceDeps, 'db' | 'recompute'>,
  actor: Actor,
  analyteIds?: number[],
) {
  const { recompute } = deps;
  const tracker = await deps.db.transaction((tx) =>
    recompute.request(tx, { analyteIds, cause: { kind: 'lookup', role: actor.role } }),
  );
  recompute.afterCommit();
  const job = await findJob(deps, tracker.id);
  return { meta: job, consolidated: job };
}
