import { eq, like, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { CHANGE_CHANNEL } from '../db/change-listener.js';
import { appState } from '../db/schema.js';
import { DATA_SCOPES, type DataScope, type Generations } from './response-cache.js';

/**
 * The change signal is a contract between every process on one database, of this release and of
 * the one before it (a rolling upgrade runs both at once; docs/operations.md):
 *
 * - v1 (releases up to stop 21): one counter, `data_generation`, bumped by every write; a process
 *   that sees it move drops its whole read cache.
 * - v2 (this release): a counter per scope, `data_generation:<scope>`, so a write drops only the
 *   answers that read what it changed.
 *
 * A v2 write bumps its scopes, the v1 counter (so v1 processes still see it) and
 * `data_generation:v1_mirror`, all in one statement. The v1 counter minus the mirror is then the
 * number of writes made by v1 processes: when it moves, a v1 process wrote, and a v2 process drops
 * every scope (v1 never said which).
 */
const V1_KEY = 'data_generation';
const PREFIX = 'data_generation:';
const MIRROR_KEY = `${PREFIX}v1_mirror`;

export interface ChangeSignal {
  generations: Generations;
  /** Writes made by processes of the previous release (v1), as a counter that only grows. */
  previousReleaseWrites: number;
}

const bumpedValue = sql`to_jsonb((${appState.value})::text::int + 1)`;

/**
 * Every write bumps the shared counters of the scopes it changes, in its transaction, so every
 * server's read cache lets go of the answers that read them (and only those). Every scope when not said.
 */
export async function bumpDataGeneration(
  db: DbOrTx,
  scopes: readonly DataScope[] = DATA_SCOPES,
): Promise<Partial<Generations>> {
  if (scopes.length === 0) return {};
  const keys = [...scopes.map((scope) => `${PREFIX}${scope}`), V1_KEY, MIRROR_KEY];
  const rows = await db
    .insert(appState)
    .values(keys.map((key) => ({ key, value: sql`'1'::jsonb` })))
    .onConflictDoUpdate({ target: appState.key, set: { value: bumpedValue, updatedAt: sql`now()` } })
    .returning({ key: appState.key, value: appState.value });
  // Delivered at commit to every process LISTENing (db/change-listener.ts); nothing if rolled back.
  await db.execute(sql`select pg_notify(${CHANGE_CHANNEL}, '')`);
  const bumped: Partial<Generations> = {};
  for (const r of rows) {
    const scope = r.key.slice(PREFIX.length) as DataScope;
    if (r.key.startsWith(PREFIX) && (DATA_SCOPES as readonly string[]).includes(scope))
      bumped[scope] = typeof r.value === 'number' ? r.value : 1;
  }
  return bumped;
}

/** The shared counters as last committed by any process, of this release or the one before. */
export async function readChangeSignal(db: DbOrTx): Promise<ChangeSignal> {
  const rows = await db
    .select({ key: appState.key, value: appState.value })
    .from(appState)
    .where(or(eq(appState.key, V1_KEY), like(appState.key, `${PREFIX}%`)));
  const generations = Object.fromEntries(DATA_SCOPES.map((s) => [s, 0])) as Generations;
  let v1 = 0;
  let mirror = 0;
  for (const r of rows) {
    const value = typeof r.value === 'number' ? r.value : 0;
    if (r.key === V1_KEY) v1 = value;
    else if (r.key === MIRROR_KEY) mirror = value;
    else {
      const scope = r.key.slice(PREFIX.length) as DataScope;
      if (scope in generations) generations[scope] = value;
    }
  }
  return { generations, previousReleaseWrites: v1 - mirror };
}
