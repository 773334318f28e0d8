import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/** The calling thread's Linux thread id (a worker's is the last part of /proc/thread-self), or null. */
function thisThreadId(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid !== process.pid ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the scheduling priority of the calling thread (a worker thread calls it for itself). On
 * Linux niceness is per thread, and a worker's thread id is the last part of /proc/thread-self, so
 * CPU-heavy background threads (password hashing, exports, statistics) yield the processor to the
 * event loop that answers every request: when the machine is busy, reads and static files go first;
 * when it is idle, the background work runs at full speed. Elsewhere (no /proc) it does nothing.
 * Raising niceness needs no privilege. Returns whether it took effect.
 */
export function lowerThisThreadPriority(niceness = BACKGROUND_NICENESS): boolean {
  const tid = thisThreadId();
  if (tid === null) return false;
  try {
    os.setPriority(tid, Math.max(os.getPriority(tid), niceness));
    return true;
  } catch {
    return false;
  }
}

/**
 * Puts the calling worker thread in Linux's SCHED_IDLE class: it runs when the event loop waits, and
 * a busy one gets the smallest share of all. Lower niceness alone did not keep scrypt's 128 MiB of
 * memory traffic from costing a saturated event loop (reads under a login flood 0.84–0.93× at nice
 * 15 and 0.85× at 19; 0.93–0.94× in SCHED_IDLE, decision 035). Node sets only niceness, so this asks
 * util-linux's `chrt` once, when the thread starts; where it is missing the niceness stays. Returns
 * whether it took effect.
 */
export function idleThisThread(): boolean {
  const tid = thisThreadId();
  if (tid === null) return false;
  const changed = spawnSync('chrt', ['--idle', '-p', '0', String(tid)], { stdio: 'ignore', timeout: 5_000 });
  return changed.status === 0;
}

/**
 * Nice 10: weight 110 against the event loop's 1024 under Linux's scheduler, so a busy background
 * thread takes about a tenth of a core the event loop wants, and all of an idle one.
 */
export const BACKGROUND_NICENESS = 10;

/**
 * Password hashing: nice 15 (weight 36 against the event loop's 1024). Measured with the server on
 * its own core under a saturating read load and a login flood (decision 034): reads kept 0.75× of
 * their throughput at nice 5, 0.86–0.92× at 10 and 0.97× at 15, while wrong-password checks still
 * completed about once a second at every level: a hash runs in the event loop's idle moments. The
 * hashing thread is also put in SCHED_IDLE where Linux lets it (idleThisThread, decision 035).
 */
export const SIGN_IN_NICENESS = 15;
