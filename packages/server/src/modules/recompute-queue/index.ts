// The recompute queue's face (decision 077): the door, the worker that drains the outbox, and the
// requests a database import makes.
export { RecomputeWorker, type RecomputeBatch } from './recompute-worker.js';
export { recomputeRequestedNow, requestRecompute } from './recompute.service.js';
