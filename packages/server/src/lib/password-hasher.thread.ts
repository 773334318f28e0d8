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

// Nice 5, not the exports' 10: a person is waiting for a sign-in, and on a machine busy with other
// work a nice-10 thread could wait minutes for the CPU (about a quarter of a contended core here).
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
