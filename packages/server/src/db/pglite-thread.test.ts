import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { seedDatabase } from '../seed/seed.js';
import { testConfig } from '../test/test-app.js';
import { openDatabase, type Database } from './client.js';
import { isDatabaseUnavailable } from './connection-errors.js';
import { analytes } from './schema.js';

/** Rows of a raw statement, whichever driver answered it. */
const rowsOf = (res: unknown) => (res as { rows: Record<string, unknown>[] }).rows;

async function until(check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The server's embedded database runs in a thread that owns PGlite (decision 085); these are its
// guarantees. The other tests keep PGlite in their own process for speed.
describe('the embedded database in its own thread', () => {
  let threaded: Database;
  let inProcess: Database;
  beforeAll(async () => {
    [threaded, inProcess] = await Promise.all([
      openDatabase({ dataDir: 'memory://', thread: true }),
      openDatabase({ dataDir: 'memory://' }),
    ]);
    for (const database of [threaded, inProcess]) {
      await seedDatabase(database.db, {
        demo: true,
        adminEmail: 'a@example.org',
        adminPassword: 'test-password-1',
      });
    }
  }, 120_000);
  afterAll(async () => {
    await threaded?.close();
    await inProcess?.close();
  });

  it('runs queries there and answers what the in-process driver answers (types included)', async () => {
    expect(threaded.thread).toBeDefined();
    expect(threaded.pglite).toBeUndefined();
    const ask = (d: Database) => d.db.select().from(analytes).orderBy(analytes.id).limit(50);
    const [a, b] = await Promise.all([ask(threaded), ask(inProcess)]);
    expect(a.length).toBe(50);
    // The two databases were seeded a moment apart: everything but the times is the same.
    const untimed = (rows: typeof a) =>
      rows.map(({ createdAt, updatedAt, ...rest }) => ({
        ...rest,
        t: [createdAt, updatedAt].map((d) => d instanceof Date),
      }));
    expect(untimed(a)).toEqual(untimed(b));
    const raw = sql`select now()::timestamptz as t, 1.50::numeric as n, 2::int8 as big, '{"x":1}'::jsonb as j,
      '\\x0102'::bytea as b, array[1,2]::int[] as arr, null::text as z`;
    const [x, y] = await Promise.all([threaded.db.execute(raw), inProcess.db.execute(raw)]);
    const [rx, ry] = [rowsOf(x)[0]!, rowsOf(y)[0]!];
    expect(typeof rx.t).toBe('string');
    expect({ ...rx, t: 0 }).toEqual({ ...ry, t: 0 });
    // pg-boss's raw executor: a multi-statement script, and a query with parameters.
    expect((await threaded.execute('select 1 as one; select 2 as two')).rows).toEqual([{ two: 2 }]);
    expect((await threaded.execute('select $1::int + 1 as n', [41])).rows).toEqual([{ n: 42 }]);
  });

  it('keeps the SQLSTATE of a failing statement (a unique violation stays 23505)', async () => {
    const [first] = await threaded.db.select().from(analytes).limit(1);
    const err = await threaded.db
      .insert(analytes)
      .values({ ...first!, id: undefined as never })
      .then(
        () => undefined,
        (e: unknown) => e as { cause?: { code?: string } },
      );
    expect(err?.cause?.code).toBe('23505');
  });

  it('rolls a transaction back', async () => {
    await threaded.db.execute(sql`create table thread_probe (n int primary key)`);
    await expect(
      threaded.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_probe values (1)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(rowsOf(await threaded.db.execute(sql`select count(*)::int as n from thread_probe`))[0]).toEqual({
      n: 0,
    });
  });

  it('never interleaves two transactions, nor a query with a transaction', async () => {
    await threaded.db.execute(sql`create table thread_order (seq serial, who text)`);
    const steps = (who: string) =>
      threaded.db.transaction(async (tx) => {
        for (let i = 0; i < 5; i++) {
          await tx.execute(sql`insert into thread_order (who) values (${who})`);
          await new Promise((r) => setTimeout(r, 5));
        }
      });
    const outside = (async () => {
      await new Promise((r) => setTimeout(r, 8));
      await threaded.db.execute(sql`insert into thread_order (who) values ('q')`);
    })();
    await Promise.all([steps('a'), steps('b'), outside]);
    const order = rowsOf(await threaded.db.execute(sql`select who from thread_order order by seq`))
      .map((r) => r.who)
      .join('');
    // Each transaction's five rows together; the lone insert waits for the one holding the database.
    expect(order).toMatch(/^(aaaaa|bbbbb)q?(aaaaa|bbbbb)q?$/);
    expect(order.length).toBe(11);
    expect(new Set(order.replace(/q/, '').match(/(.)\1{4}/g))).toEqual(new Set(['aaaaa', 'bbbbb']));
  });

  it('an in-memory database whose thread dies is fatal (its rows died with it)', async () => {
    let fatal: Error | undefined;
    const doomed = await openDatabase({
      dataDir: 'memory://',
      thread: true,
      onThreadFatal: (e) => (fatal = e),
    });
    const pending = doomed.db.execute(sql`select pg_sleep(0.5)`);
    doomed.thread!.crashForTests();
    await expect(pending).rejects.toSatisfy(isDatabaseUnavailable);
    await until(() => fatal !== undefined);
    await expect(doomed.db.execute(sql`select 1`)).rejects.toSatisfy(isDatabaseUnavailable);
    await doomed.close();
  });
});

describe('the embedded database thread on a folder', () => {
  let folder = '';
  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-thread-'));
  });
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('dies → requests answer 503, a new thread takes over the folder, the rows are there; closes cleanly', async () => {
    const database = await openDatabase({ dataDir: folder, thread: true });
    await seedDatabase(database.db, {
      demo: false,
      adminEmail: 'a@example.org',
      adminPassword: 'test-password-1',
    });
    await database.db.execute(sql`create table survives (n int)`);
    await database.db.execute(sql`insert into survives values (7)`);
    const app = await buildApp({ config: testConfig(), database });
    await app.ready();
    try {
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
      const inFlight = database.db.execute(sql`select pg_sleep(1)`);
      database.thread!.crashForTests();
      await expect(inFlight).rejects.toSatisfy(isDatabaseUnavailable);
      const down = await app.inject({ url: '/api/v1/changes' });
      expect(down.statusCode).toBe(503);
      expect(down.headers['retry-after']).toBeDefined();
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(503);
      await until(() => database.thread!.running);
      expect(database.thread!.restarts).toBe(1);
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/v1/changes' })).statusCode).toBe(200);
      expect(rowsOf(await database.db.execute(sql`select n from survives`))).toEqual([{ n: 7 }]);
    } finally {
      await app.close();
      await database.close();
    }
    // Closed: the lock is let go and PGlite checkpointed; the folder opens again (here in process).
    const again = await openDatabase({ dataDir: folder });
    expect(rowsOf(await again.db.execute(sql`select n from survives`))).toEqual([{ n: 7 }]);
    await again.close();
  }, 120_000);
});
