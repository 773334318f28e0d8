import type { Tx } from '../db/client.js';
import { bumpDataGeneration } from './app-state.repository.js';
import { DATA_SCOPES, type DataScope } from './response-cache.js';
import type { ServiceDeps } from './service-deps.js';

/** For writes no public answer shows (mailing-list members, users): they invalidate nothing. */
export const NO_PUBLIC_DATA: readonly DataScope[] = [];

/**
 * Runs one write in one transaction that also bumps the shared generations of the scopes it
 * `changes` (every scope unless said; none for data no public answer shows), then lets go of this
 * process's answers that read them once the transaction has committed (other processes notice the
 * counters), and wakes the recompute worker when the write asked for a recompute.
 */
export async function writeTransaction<T>(
  deps: Pick<ServiceDeps, 'db' | 'cache'> & Partial<Pick<ServiceDeps, 'recompute'>>,
  work: (tx: Tx) => Promise<T>,
  changes: readonly DataScope[] = DATA_SCOPES,
): Promise<T> {
  const { result, generations } = await deps.db.transaction(async (tx) => {
    const result = await work(tx);
    const generations = await bumpDataGeneration(tx, changes);
    return { result, generations };
  });
  deps.cache.invalidate(changes, generations);
  // The recompute the write asked for through the door (if any) starts now, not at the next poll.
  deps.recompute?.afterCommit();
  return result;
}

/** PostgreSQL's unique_violation, whichever driver (and whichever wrapping) reports it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
