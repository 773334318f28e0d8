import { like, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { appState } from '../db/schema.js';
import { DATA_SCOPES, type DataScope, type Generations } from './response-cache.js';

const PREFIX = 'data_generation:';

/**
 * Every write bumps the shared counters of the scopes it changes, in its transaction, so every
 * server's read cache lets go of the answers that read them (and only those). Every scope when not said.
 */
export async function bumpDataGeneration(
  db: DbOrTx,
  scopes: readonly DataScope[] = DATA_SCOPES,
): Promise<Partial<Generations>> {
  if (scopes.length === 0) return {};
  const rows = await db
    .insert(appState)
    .values(scopes.map((scope) => ({ key: `${PREFIX}${scope}`, value: sql`'1'::jsonb` })))
    .onConflictDoUpdate({
      target: appState.key,
      set: { value: sql`to_jsonb((${appState.value})::text::int + 1)`, updatedAt: sql`now()` },
    })
    .returning({ key: appState.key, value: appState.value });
  return Object.fromEntries(
    rows.map((r) => [r.key.slice(PREFIX.length), typeof r.value === 'number' ? r.value : 1]),
  );
}

/** The shared counters as last committed by any process (0 before the first write). */
export async function readDataGenerations(db: DbOrTx): Promise<Generations> {
  const rows = await db
    .select({ key: appState.key, value: appState.value })
    .from(appState)
    .where(like(appState.key, `${PREFIX}%`));
  const generations = Object.fromEntries(DATA_SCOPES.map((s) => [s, 0])) as Generations;
  for (const r of rows) {
    const scope = r.key.slice(PREFIX.length) as DataScope;
    if (scope in generations && typeof r.value === 'number') generations[scope] = r.value;
  }
  return generations;
}
