import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-app.js';
import type { Database } from '../db/client.js';
import { bumpDataGeneration, readChangeSignal } from './app-state.repository.js';
import { ResponseCache } from './response-cache.js';

/** Exactly what a process of the previous release (v1) does on every write: one shared counter. */
const previousReleaseWrite = (database: Database) =>
  database.db.execute(sql`insert into app_state (key, value) values ('data_generation', '1'::jsonb)
    on conflict (key) do update set value = to_jsonb((app_state.value)::text::int + 1), updated_at = now()`);

/** What a process of the previous release reads to decide whether to drop its cache. */
const previousReleaseRead = async (database: Database) => {
  const { rows } = await database.execute(`select value from app_state where key = 'data_generation'`);
  return (rows[0] as { value: number } | undefined)?.value ?? 0;
};

describe('the change signal across releases (issue 25, point 10: rolling upgrade)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ database, drop } = await createTestDatabase()));
  afterAll(() => drop());

  /** A process of this release, as cached-json's sync sees the database. */
  const sync = async (cache: ResponseCache) => {
    const signal = await readChangeSignal(database.db);
    cache.observe(signal.generations, signal.previousReleaseWrites);
  };

  it("a write by a previous-release process drops this release's cache", async () => {
    const cache = new ResponseCache();
    await sync(cache);
    cache.set('/api/analytes/1', 'sodium', {}, ['analytes']);
    cache.set('/api/meta', 'metas', {}, ['metas']);
    await sync(cache);
    expect(cache.get('/api/analytes/1')).toBeDefined();
    await previousReleaseWrite(database);
    await sync(cache);
    expect(cache.get('/api/analytes/1')).toBeUndefined();
    expect(cache.get('/api/meta')).toBeUndefined();
  });

  it('a write by another process of this release drops only its scopes, and the previous release sees it', async () => {
    const cache = new ResponseCache();
    await sync(cache);
    cache.set('/api/analytes/1', 'sodium', {}, ['analytes']);
    cache.set('/api/meta', 'metas', {}, ['metas']);
    const v1Before = await previousReleaseRead(database);
    await bumpDataGeneration(database.db, ['metas']);
    await sync(cache);
    expect(cache.get('/api/meta')).toBeUndefined();
    expect(cache.get('/api/analytes/1')).toBeDefined();
    expect(await previousReleaseRead(database)).toBe(v1Before + 1);
  });

  it("this process's own write, remembered at commit, drops its scopes once and nothing more", async () => {
    const cache = new ResponseCache();
    await sync(cache);
    cache.set('/api/analytes/1', 'sodium', {}, ['analytes']);
    cache.invalidate(['lookups'], await bumpDataGeneration(database.db, ['lookups']));
    cache.set('/api/lookups', 'lookups', {}, ['lookups']);
    await sync(cache);
    expect(cache.get('/api/analytes/1')).toBeDefined();
    expect(cache.get('/api/lookups')).toBeDefined();
  });
});
