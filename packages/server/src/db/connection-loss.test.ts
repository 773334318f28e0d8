import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';
import { isDatabaseUnavailable } from './connection-errors.js';

const serverUrl = process.env.TEST_DATABASE_URL;

// Connections can be lost only on a PostgreSQL server: this file runs in the PostgreSQL pass
// (`npm test` with BVDB_TEST_PG_URL, as CI does). The embedded database has no connection to lose.
describe.runIf(serverUrl)('the PostgreSQL server going away (issue 25, point 2)', () => {
  const ctx = useTestApp({ demo: true });
  const admin = new pg.Client({ connectionString: serverUrl });
  let name = '';
  beforeAll(async () => {
    await admin.connect();
    name = (await ctx.database.execute('select current_database() as name')).rows[0] as string;
    name = (name as unknown as { name: string }).name;
  });
  afterAll(async () => {
    await admin.query(`alter database "${name}" allow_connections true`).catch(() => undefined);
    await admin.end();
  });

  /** Ends every connection of the app's database (as a restart or an operator would). */
  const endConnections = () =>
    admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );

  it('a connection lost while checked out (in a transaction, between queries) does not stop the process', async () => {
    const client = await ctx.database.pool!.connect();
    await client.query('begin');
    await endConnections();
    // The driver emits 'error' on the checked-out client; with no listener that is an uncaught
    // exception, which fails this run.
    await new Promise((r) => setTimeout(r, 500));
    await expect(client.query('select 1')).rejects.toSatisfy(isDatabaseUnavailable);
    client.release(true);
    const res = await ctx.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
  });

  it('the request whose query is cut answers 503 with Retry-After, never 500', async () => {
    // Hold the request's first read on a lock, end its connection while it waits.
    const locker = new pg.Client({ connectionString: serverUrl!.replace(/\/[^/]*$/, `/${name}`) });
    await locker.connect();
    await locker.query('begin; lock table analytes in access exclusive mode');
    const pending = ctx.app.inject({ url: '/api/analytes/1' });
    for (let i = 0; i < 50; i++) {
      const waiting = await admin.query(
        `select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`,
        [name],
      );
      if ((waiting.rows[0] as { n: number }).n > 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`,
      [name],
    );
    const res = await pending;
    await locker.query('rollback');
    await locker.end();
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toMatchObject({ message: 'The database is unavailable; try again in a few seconds' });
    expect((await ctx.app.inject({ url: '/api/analytes/1' })).statusCode).toBe(200);
  });

  it('while the database refuses connections: reads 503, /readyz says so, /healthz lives; all back after', async () => {
    await admin.query(`alter database "${name}" allow_connections false`);
    await endConnections();
    try {
      const read = await ctx.app.inject({ url: '/api/analytes/2' });
      expect(read.statusCode, read.body).toBe(503);
      expect(read.headers['retry-after']).toBeDefined();
      const ready = await ctx.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json<{ message: string }>().message).toMatch(/not currently accepting connections/);
      expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await admin.query(`alter database "${name}" allow_connections true`);
    }
    expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/analytes/2' })).statusCode).toBe(200);
  });
});

describe('which failures are the database being away', () => {
  it.each([
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, true],
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }, true],
    [new Error('Connection terminated unexpectedly'), true],
    [Object.assign(new Error('Failed query: select 1'), { cause: { code: '08006' } }), true],
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }, false],
    [new Error('boom'), false],
  ])('%o → %s', (err, expected) => {
    expect(isDatabaseUnavailable(err)).toBe(expected);
  });
});
