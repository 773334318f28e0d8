import { scryptSync } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority, SIGN_IN_NICENESS } from './thread-priority.js';

/** Runs in a worker thread at background priority: one scrypt at a time (lib/password.ts). */
export interface HashJob {
  id: number;
  password: string;
  salt: Uint8Array;
  keyLength: number;
  options: { N: number; r: number; p: number; maxmem: number };
}
export type HashResult =
  { id: number; ok: true; key: Uint8Array } | { id: number; ok: false; message: string };

// Nice 15, below the exports' 10: measured with the server on its own core (decision 034), a login
// flood's back-to-back hashes cut reads to 0.75× at nice 5 and 0.86–0.92× at 10; at 15 reads keep
// 0.97× and a sign-in under that flood still completes in about a second.
lowerThisThreadPriority(SIGN_IN_NICENESS);
parentPort?.on('message', (job: HashJob) => {
  let result: HashResult;
  try {
    const key = scryptSync(job.password, job.salt, job.keyLength, job.options);
    result = { id: job.id, ok: true, key: new Uint8Array(key) };
  } catch (err) {
    result = { id: job.id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(result);
});
