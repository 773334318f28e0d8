import type { Tx } from '../db/client.js';
import { bumpDataGeneration } from './app-state.repository.js';
import type { ServiceDeps } from './service-deps.js';

/**
 * Runs one write in one transaction that also bumps the shared data generation, then drops this
 * process's read cache once the transaction has committed (other processes notice the counter).
 */
export async function writeTransaction<T>(
  deps: Pick<ServiceDeps, 'db' | 'cache'>,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  const { result, generation } = await deps.db.transaction(async (tx) => {
    const result = await work(tx);
    const generation = await bumpDataGeneration(tx);
    return { result, generation };
  });
  deps.cache.invalidate(generation);
  return result;
}

/** PostgreSQL's unique_violation, whichever driver (and whichever wrapping) reports it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
