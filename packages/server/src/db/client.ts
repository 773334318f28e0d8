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
import { createPgliteFolder, pgliteFolderExists } from './pglite-folder.js';
import { startNewPglite } from './pglite-template.js';
import { jsonLineLog, OutageLog } from '../lib/outage-log.js';
import { PgliteThreadPool } from './pglite-thread.js';

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
  /** The server's URL (PostgreSQL only), for connections that live outside the pool (LISTEN). */
  connectionString?: string;
  /** The embedded database in this process (`thread: false`: tests, benches, the CLI). */
  pglite?: PGlite;
  /** The embedded database in a thread that owns it (`thread: true`: the server, decision 085). */
  thread?: PgliteThreadPool;
  /** The embedded database's folder was created by this open (in a child process). */
  created?: boolean;
  /** A memory:// database made by initdb keeps its copy once migrated (decision 090). */
  keepAsTemplate?: () => Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Folder of the embedded database; `memory://` for a throw-away one (tests). */
  dataDir: string;
  /** Hold an exclusive lock on the folder (the server does; tests on memory do not need it). */
  lock?: boolean;
  /** Told the migrations this open applied (their tags; none when the schema was current). */
  onMigrated?: (applied: string[]) => void;
  /** PGPASSWORD: the password of the URL's user when the URL carries none (any characters). */
  password?: string | undefined;
  /** How long to wait for a PostgreSQL server that does not answer yet. */
  connect?: ConnectRetry;
  /** PostgreSQL's `application_name` of the pool's connections (pg_stat_activity, the server's log). */
  applicationName?: string;
  /** Told when this open created the embedded database (in a child process), and how long it took. */
  onCreated?: (ms: number) => void;
  /**
   * Open the embedded database in a worker thread that owns it, so reading and decoding its rows
   * never holds the event loop (decision 085). The server does; tests may keep it in process.
   */
  thread?: boolean;
  /**
   * The embedded database's thread died and cannot be started again (an in-memory database, or a
   * folder that no longer opens): the process should stop. Without it, the failure is logged.
   */
  onThreadFatal?: (err: Error) => void;
}

/** Opens the embedded PGlite database or a PostgreSQL server, and applies the migrations. */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const database = opts.databaseUrl
    ? await openPostgres(withPassword(opts.databaseUrl, opts.password), opts.connect, opts.applicationName)
    : await openPglite(opts);
  try {
    const applied = await migrateDatabase(database);
    opts.onMigrated?.(applied);
    await database.keepAsTemplate?.();
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

async function openPostgres(
  url: string,
  connect: ConnectRetry = {},
  applicationName = 'bvdb',
): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: 10_000,
    application_name: applicationName,
  });
  // A connection the server ends (restart, failover, an operator's pg_terminate_backend) must not
  // take the process down. The pool listens only while a client is idle; a client checked out by a
  // request or a transaction emits 'error' with no listener, which Node turns into an uncaught
  // exception. So every client gets its own listener for its whole life: the query in flight fails
  // (the request answers 503, plugins/error-handler.ts) and the pool drops the broken client.
  pool.on('error', (err) => logConnectionLoss('idle connection lost', err));
  pool.on('connect', (client) => {
    client.on('error', (err) => logConnectionLoss('connection lost', err));
    connectionOutage.succeeded();
  });
  await connectWithRetry(pool, url, connect);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    pool,
    connectionString: url,
    execute: async (text, values) => {
      const res = await pool.query(text, values);
      return { rows: res.rows as unknown[] };
    },
    close: () => pool.end(),
  };
}

/**
 * Connections the server ends, as JSON lines on stdout like every other line: once when the first
 * is lost, once when a new connection is made again (issue 43.11); the driver's reason, no SQL.
 */
const connectionOutage = new OutageLog(jsonLineLog({ component: 'database' }), 'database connection');

function logConnectionLoss(what: string, err: Error): void {
  connectionOutage.failed(
    Object.assign(new Error(`${what}: ${err.message}`), {
      cause: undefined,
      code: (err as { code?: string }).code,
    }),
  );
}

/**
 * The URL to connect with: DATABASE_URL with PGPASSWORD put in as its password, percent-encoded,
 * so a password with `/ @ : # ? %` (what `openssl rand -base64` gives) reaches the server as it is
 * (decision 080). A password written in the URL itself wins, as in libpq.
 */
export function withPassword(databaseUrl: string, password: string | undefined): string {
  if (!password) return databaseUrl;
  const url = new URL(databaseUrl);
  if (url.password) return databaseUrl;
  url.password = encodeURIComponent(password);
  return url.toString();
}

/** `postgres://user:secret@host/db` as it may be logged: without the password. */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(DATABASE_URL is not a URL)';
  }
}

export interface ConnectRetry {
  /** How long to keep trying before giving up (DATABASE_WAIT_SECONDS). */
  waitMs?: number;
  /** The first pause between attempts; each next one doubles, up to 8 s. */
  firstDelayMs?: number;
}

/** The server cannot be reached after every attempt: `main` exits with EX_TEMPFAIL (75). */
export class DatabaseUnreachableError extends Error {}

/**
 * Fail at boot, not at the first request, when the server is unreachable — but only after a
 * bounded back-off (a minute by default), so a database that starts a little after us (a compose
 * file, a reboot) is waited for.
 */
async function connectWithRetry(pool: pg.Pool, url: string, opts: ConnectRetry): Promise<void> {
  const { waitMs = 60_000, firstDelayMs = 500 } = opts;
  const giveUpAt = Date.now() + waitMs;
  let delay = firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const client = await pool.connect();
      client.release();
      return;
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      const wait = Math.min(delay, giveUpAt - Date.now());
      if (wait <= 0) {
        await pool.end().catch(() => undefined);
        throw new DatabaseUnreachableError(
          `cannot reach the database at ${redactDatabaseUrl(url)} (${why}) after ${attempt} attempt(s) in ${Math.round(waitMs / 1000)} s (DATABASE_WAIT_SECONDS)`,
        );
      }
      console.error(
        `bvdb database: cannot reach ${redactDatabaseUrl(url)} (${why}); trying again in ${(wait / 1000).toFixed(1)} s`,
      );
      await new Promise((r) => setTimeout(r, wait));
      delay = Math.min(delay * 2, 8000);
    }
  }
}

/**
 * PGlite's start parameters for a database in a data folder: its own, with 32 MB of shared buffers
 * instead of PostgreSQL's 128 MB. Inside WebAssembly those buffers are the process's own memory,
 * resident once touched, while the pages they would hold are in the system's file cache anyway:
 * at 100× the demo the open server holds ≈ 130 MB less with no slower reads (decision 073).
 */
const FOLDER_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

async function openPglite(opts: OpenOptions): Promise<Database> {
  const inMemory = opts.dataDir.startsWith('memory://');
  let lock: FolderLock | undefined;
  if (!inMemory) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    if (opts.lock !== false) lock = await acquireFolderLock(opts.dataDir);
  }
  let pglite: PGlite | undefined;
  let thread: PgliteThreadPool | undefined;
  let created = false;
  let keepAsTemplate: (() => Promise<void>) | undefined;
  try {
    // memory:// databases (tests, benches) are created in this process: they live no longer than it.
    const pgdata = inMemory ? undefined : path.join(opts.dataDir, 'pgdata');
    if (pgdata && !pgliteFolderExists(pgdata)) {
      // Under the folder lock taken above: no other process opens the folder while the child works.
      const begun = Date.now();
      await createPgliteFolder(pgdata, { migrationsFolder: MIGRATIONS_FOLDER });
      created = true;
      opts.onCreated?.(Date.now() - begun);
    }
    if (opts.thread) {
      thread = await PgliteThreadPool.open({
        start: { pgdata, startParams: FOLDER_START_PARAMS },
        onLost: (err) => connectionOutage.failed(err),
        onBack: () => connectionOutage.succeeded(),
        onFatal:
          opts.onThreadFatal ??
          ((err) =>
            jsonLineLog({ component: 'database' }).error({ err: err.message }, 'embedded database lost')),
      });
    } else if (pgdata) {
      pglite = new PGlite(pgdata, { startParams: FOLDER_START_PARAMS });
      await pglite.waitReady;
    } else {
      // A throw-away database starts from the empty migrated copy when there is one (decision 090).
      const started = await startNewPglite(undefined, MIGRATIONS_FOLDER);
      pglite = started.pglite;
      keepAsTemplate = started.keep;
    }
  } catch (err) {
    await lock?.release();
    throw err;
  }
  if (thread) {
    const pool = thread;
    return {
      // drizzle's node-postgres driver over the thread's pool-like face (one session, in turns).
      db: drizzlePg(pool as unknown as pg.Pool, { schema }) as unknown as Db,
      kind: 'pglite',
      thread: pool,
      created,
      execute: (text, values) =>
        !values || values.length === 0 ? pool.exec(text) : pool.query(text, values),
      close: async () => {
        await pool.close();
        await lock?.release();
      },
    };
  }
  const db = drizzlePglite(pglite!, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite,
    created,
    keepAsTemplate,
    execute: async (text, values) => {
      // pg-boss sends parameter-less multi-statement scripts; PGlite runs those only through exec().
      if (!values || values.length === 0) {
        const results = await pglite!.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const res = await pglite!.query(text, values);
      return { rows: res.rows };
    },
    close: async () => {
      await pglite!.close();
      await lock?.release();
    },
  };
}

/** One advisory lock for everything a start does to a shared database: migrations, seeding. */
const STARTUP_LOCK_KEY = 724_001;

/**
 * Runs `work` while holding the start-up lock, so server processes started together on one
 * PostgreSQL database migrate and seed one after the other: the second finds the first one's rows
 * instead of colliding with them (duplicate keys). On the embedded database the folder lock
 * already keeps a second process out.
 */
export async function withStartupLock<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return work();
  const client = await database.pool!.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    return await work();
  } finally {
    await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}

/** Migrations recorded as applied (0 before the first). */
async function countMigrations(database: Database): Promise<number> {
  try {
    const res = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const rows = (res as { rows?: { n?: number }[] }).rows ?? [];
    return Number(rows[0]?.n ?? 0);
  } catch {
    return 0;
  }
}

/** The migrations' names, in order, from drizzle's journal. */
function migrationTags(): string[] {
  const journal = JSON.parse(
    fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((e) => e.tag);
}

/**
 * Applies the migrations not yet applied; answers the tags this call applied. Several server
 * processes may start at once: one migrates, the others wait for it under the start-up lock, and
 * the count is taken inside the lock, so the ones that waited answer none (issue 43.11): only the
 * process that applied them logs "migrations applied".
 */
export async function migrateDatabase(database: Database): Promise<string[]> {
  if (database.kind === 'pglite') {
    // A folder the child just created holds every migration, all of them applied by this open.
    const before = database.created ? 0 : await countMigrations(database);
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return migrationTags().slice(before, await countMigrations(database));
  }
  return withStartupLock(database, async () => {
    const before = await countMigrations(database);
    await migratePg(drizzlePg(database.pool!, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    return migrationTags().slice(before, await countMigrations(database));
  });
}

/** Whether a handle is on the embedded database, in process or in its thread (not PostgreSQL). */
export function isEmbeddedDb(db: Db): boolean {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof PGlite || client instanceof PgliteThreadPool;
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
