import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';

// Replicas started together on an empty database (issue 43.11): both wait on the start-up lock,
// one applies the migrations; the count is taken inside the lock, so only that one reports them
// ("migrations applied" with every name) and the other reports none ("up to date").
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('two migrate runs at once on the PostgreSQL server', () => {
  it('only one reports the migrations it applied; the other reports none', async () => {
    const name = `bvdb_migrate_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const url = new URL(serverUrl!);
      url.pathname = `/${name}`;
      const reports: string[][] = [];
      const open = () =>
        openDatabase({
          databaseUrl: url.toString(),
          dataDir: 'unused',
          onMigrated: (applied) => reports.push(applied),
        });
      const opened = await Promise.all([open(), open()]);
      await Promise.all(opened.map((d) => d.close()));
      const sorted = [...reports].sort((a, b) => b.length - a.length);
      expect(sorted).toHaveLength(2);
      expect(sorted[0]!.length).toBeGreaterThanOrEqual(12);
      expect(sorted[0]![0]).toMatch(/^0000_/);
      expect(sorted[1]).toEqual([]);
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
