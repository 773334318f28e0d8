import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase, type Database } from '../db/client.js';
import { bumpDataGeneration } from '../lib/app-state.repository.js';
import { testConfig, useTestApp } from '../test/test-app.js';

const serverUrl = process.env.TEST_DATABASE_URL;

async function until(what: string, ok: () => boolean, ms = 5000): Promise<number> {
  const started = performance.now();
  while (!ok()) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
  return performance.now() - started;
}

// Two processes on one PostgreSQL server; the embedded database has only ever one process.
describe.runIf(serverUrl)(
  "another process's write reaches this one by notification (issue 26, point 5)",
  () => {
    const writer = useTestApp({ demo: false });
    let database: Database;
    let reader: FastifyInstance;
    beforeAll(async () => {
      database = await openDatabase({ databaseUrl: writer.database.connectionString!, dataDir: 'unused' });
      reader = await buildApp({ config: testConfig(), database });
      await reader.ready();
      await until('the reader listens', () => reader.deps.changes?.listening === true);
      // The first read adopts the shared counters.
      await reader.inject({ url: '/api/analytes/1' });
    });
    afterAll(async () => {
      await reader.close();
      await database.close();
    });

    it("drops the reader's cached answers of the written scope at once, with no request to the reader", async () => {
      const cache = reader.deps.cache;
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        const analytes = cache.stampOf(['analytes']);
        const metas = cache.stampOf(['metas']);
        await writer.database.db.transaction((tx) => bumpDataGeneration(tx, ['analytes']));
        latencies.push(await until('the notification', () => cache.stampOf(['analytes']) !== analytes));
        expect(cache.stampOf(['metas'])).toBe(metas); // only what the write changed
      }
      latencies.sort((a, b) => a - b);
      console.log(
        `notification to invalidation: median ${latencies[2]!.toFixed(1)} ms, max ${latencies[4]!.toFixed(1)} ms`,
      );
      // No request reached the reader: only the notification can have moved it (the poll runs on reads).
      expect(latencies[2]!).toBeLessThan(1000);
    });

    it('a rolled-back write notifies nobody', async () => {
      const stamp = reader.deps.cache.stampOf(['analytes']);
      await writer.database.db
        .transaction(async (tx) => {
          await bumpDataGeneration(tx, ['analytes']);
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await new Promise((r) => setTimeout(r, 300));
      expect(reader.deps.cache.stampOf(['analytes'])).toBe(stamp);
    });

    it('survives losing its connection: polls meanwhile, listens again, and catches up on what it missed', async () => {
      // The listener of this test's database: terminate by database name.
      const dbName = new URL(writer.database.connectionString!).pathname.slice(1);
      const killer = new pg.Client({ connectionString: serverUrl });
      await killer.connect();
      await killer.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query ilike 'LISTEN %'`,
        [dbName],
      );
      await killer.end();
      await until('the reader notices', () => reader.deps.changes?.listening === false);
      const stamp = reader.deps.cache.stampOf(['datasets']);
      await writer.database.db.transaction((tx) => bumpDataGeneration(tx, ['datasets']));
      await until(
        'the reader listens again and catches up',
        () => reader.deps.changes?.listening === true,
        15_000,
      );
      await until('the missed write is seen', () => reader.deps.cache.stampOf(['datasets']) !== stamp);
      expect((await reader.inject({ url: '/readyz' })).statusCode).toBe(200);
    });
  },
);
