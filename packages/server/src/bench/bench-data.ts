import { analytes, bvSpecifications } from '../db/schema.js';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.js';
import { bumpDataGeneration } from '../lib/app-state.repository.js';

/** Copies every demo measurand and its datasets (factor − 1) times, in batched inserts: a database `factor`× the demo size. */
export async function multiply(database: Database, factor: number) {
  const db = database.db;
  const baseAnalytes = await db.select().from(analytes);
  const baseSpecs = await db.select().from(bvSpecifications);
  for (let k = 2; k <= factor; k++) {
    await db.transaction(async (tx) => {
      const copies = await tx
        .insert(analytes)
        .values(
          baseAnalytes.map(({ id: _id, ...a }) => ({ ...a, displayName: `${a.displayName} (copy ${k})` })),
        )
        .returning({ id: analytes.id, displayName: analytes.displayName });
      const idOf = new Map(copies.map((c) => [c.displayName, c.id]));
      const specs = baseSpecs.map(({ id: _sid, ...s }) => ({
        ...s,
        analyteId: idOf.get(`${baseAnalytes.find((a) => a.id === s.analyteId)!.displayName} (copy ${k})`)!,
        uniqueIdentifier: `${s.uniqueIdentifier}-${k}`,
      }));
      for (let i = 0; i < specs.length; i += 500)
        await tx.insert(bvSpecifications).values(specs.slice(i, i + 500));
      await bumpDataGeneration(tx);
    });
  }
}

/**
 * A fresh, empty database for one bench step: an in-memory PGlite, or with `DATABASE_URL` a
 * brand-new database on that PostgreSQL server (named `<its name>_bench_<label>`, dropped on close),
 * so both engines are measured by the same code.
 */
export async function openBenchDatabase(label: string, opts: { thread?: boolean } = {}): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  // `thread`: the embedded database as the server opens it, in a thread of its own (decision 085).
  if (!serverUrl) return openDatabase({ dataDir: 'memory://', thread: opts.thread });
  const url = new URL(serverUrl);
  const name = `${url.pathname.slice(1) || 'bvdb'}_bench_${label}`.replace(/[^a-z0-9_]/gi, '_');
  const admin = async (text: string) => {
    // Connected to the server's own `postgres` database: the one named may not exist.
    const c = new pg.Client({
      connectionString: Object.assign(new URL(serverUrl), { pathname: '/postgres' }).toString(),
    });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'unused' });
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * Resolves once the event loop has been nearly idle for 4 s after being busy (the background fill is
 * over: it rests twice as long as a step took, and a step is under a second).
 */
export async function untilIdle(maxSeconds = 300): Promise<void> {
  let quiet = 0;
  let busy = false;
  const end = Date.now() + maxSeconds * 1000;
  let last = performance.eventLoopUtilization();
  while ((!busy || quiet < 16) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 250));
    const now = performance.eventLoopUtilization();
    const idle = performance.eventLoopUtilization(now, last).utilization < 0.05;
    busy ||= !idle;
    quiet = idle ? quiet + 1 : 0;
    last = now;
  }
}
