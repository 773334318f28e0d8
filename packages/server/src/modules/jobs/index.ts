// The jobs module's face (decision 077): the job tracker the curators' page reads, and the records
// the recompute queue keeps in it.
export { registerJobRoutes } from './jobs.routes.js';
export {
  advanceTrackers,
  failTrackers,
  findJobRecord,
  insertTracker,
  markFinished,
  markProgress,
  markStarted,
} from './job-records.service.js';
export { META_JOB_NAMES, parseLegacyPayload, type LegacyMetaRecomputePayload } from './legacy-jobs.js';
