import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.js';
import { acquireFolderLock, type FolderLock } from './folder-lock.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database handle or an open transaction: repositories take either. */
export type DbOrTx = Db | Tx;

/** Executes raw SQL with parameters on whichever driver is behind: used by pg-boss. */
export type RawExecutor = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  execute: RawExecutor;
  pool?: pg.Pool;
  pglite?: PGlite;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; `memory://` for a throw-away one (tests). */
  dataDir: string;
  /** Hold an exclusive lock on the folder (the server does; tests on memory do not need it). */
  lock?: boolean;
}

/** Opens the embedded PGlite database or a PostgreSQL server, and applies the migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const database = opts.databaseUrl ? await openPostgres(opts.databaseUrl) : await openPglite(opts);
  try {
    await migrateDatabase(database);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server ends (restart, failover, a dropped database) must not take the
  // process down: the pool replaces it on the next checkout.
  pool.on('error', (err) => console.error('bvdb database: idle connection lost:', err.message));
  // Fail at boot, not at the first request, when the server is unreachable.
  const client = await pool.connect();
  client.release();
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    pool,
    execute: async (text, values) => {
      const res = await pool.query(text, values);
      return { rows: res.rows as unknown[] };
    },
    close: () => pool.end(),
  };
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  const inMemory = opts.dataDir.startsWith('memory://');
  let lock: FolderLock | undefined;
  if (!inMemory) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    if (opts.lock !== false) lock = await acquireFolderLock(opts.dataDir);
  }
  let pglite: PGlite;
  try {
    pglite = inMemory ? new PGlite() : new PGlite(path.join(opts.dataDir, 'pgdata'));
    await pglite.waitReady;
  } catch (err) {
    await lock?.release();
    throw err;
  }
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite,
    execute: async (text, values) => {
      // pg-boss sends parameter-less multi-statement scripts; PGlite runs those only through exec().
      if (!values || values.length === 0) {
        const results = await pglite.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const res = await pglite.query(text, values);
      return { rows: res.rows };
    },
    close: async () => {
      await pglite.close();
      await lock?.release();
    },
  };
}

const MIGRATION_LOCK_KEY = 724_001;

async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  // Several server processes may start at once: one migrates, the others wait for it.
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
