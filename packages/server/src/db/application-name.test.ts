import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeListener, LISTENER_APPLICATION_NAME } from './change-listener.js';
import { openDatabase, type Database } from './client.js';

const serverUrl = process.env.TEST_DATABASE_URL;

// A DBA looking at pg_stat_activity sees which bvdb process holds each connection (issue 28, point 6).
describe.runIf(serverUrl)('application_name on PostgreSQL connections', () => {
  const name = `bvdb_appname_${randomBytes(4).toString('hex')}`;
  let url: string;
  let admin: pg.Client;
  let database: Database | undefined;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const u = new URL(serverUrl!);
    u.pathname = `/${name}`;
    url = u.toString();
  });
  afterAll(async () => {
    await database?.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  const namesConnected = async () =>
    (
      await admin.query<{ application_name: string }>(
        'select application_name from pg_stat_activity where datname = $1',
        [name],
      )
    ).rows.map((r) => r.application_name);

  it("names the pool's connections as asked, and the change listener's bvdb-listen", async () => {
    database = await openDatabase({ databaseUrl: url, dataDir: 'unused', applicationName: 'bvdb-worker' });
    const own = await database.execute('select current_setting($1) as name', ['application_name']);
    expect(own.rows).toEqual([{ name: 'bvdb-worker' }]);
    expect(await namesConnected()).toContain('bvdb-worker');
    const listener = new ChangeListener({ connectionString: url, onChange: () => undefined });
    listener.start();
    try {
      const deadline = Date.now() + 10_000;
      while (!listener.listening && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(listener.listening).toBe(true);
      expect(await namesConnected()).toContain(LISTENER_APPLICATION_NAME);
      expect(LISTENER_APPLICATION_NAME).toBe('bvdb-listen');
    } finally {
      await listener.stop();
    }
  });

  it('is `bvdb` when the opener names none', async () => {
    await database?.close();
    database = await openDatabase({ databaseUrl: url, dataDir: 'unused' });
    const own = await database.execute('select current_setting($1) as name', ['application_name']);
    expect(own.rows).toEqual([{ name: 'bvdb' }]);
  });
});
