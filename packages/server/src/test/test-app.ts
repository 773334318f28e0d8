import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { seedDatabase } from '../seed/seed.js';

export const TEST_ADMIN = { email: 'admin@example.org', password: 'test-password-123' };

/**
 * A real database for one test file: an in-memory PGlite by default, or a brand-new database on the
 * PostgreSQL server named by TEST_DATABASE_URL (dropped afterwards), so every run starts empty.
 */
export async function createTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({ dataDir: 'memory://' });
    return { database, drop: () => database.close() };
  }
  const name = `bvdb_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'unused' });
  return {
    database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
    WEB_DIST: '/nonexistent',
    RATE_LIMIT_PER_MINUTE: '100000',
    RATE_LIMIT_HEAVY_PER_MINUTE: '100000',
    RATE_LIMIT_WRITE_PER_MINUTE: '100000',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
    ...overrides,
  });
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  close: () => Promise<void>;
}

/** A seeded app on a fresh database; `demo: false` for an empty catalogue. */
export async function createTestApp(
  opts: { demo?: boolean; env?: Record<string, string> } = {},
): Promise<TestContext> {
  const { database, drop } = await createTestDatabase();
  await seedDatabase(database.db, {
    demo: opts.demo ?? true,
    adminEmail: TEST_ADMIN.email,
    adminPassword: TEST_ADMIN.password,
  });
  const app = await buildApp({ config: testConfig(opts.env), database });
  await app.ready();
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

export const json = <T = any>(res: LightMyRequestResponse): T => res.json<T>(); // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * One seeded app for the whole test file: created before the first test, closed after the last.
 * The returned object is filled in by `beforeAll`, so read it inside tests, not at import time.
 */
export function useTestApp(opts: Parameters<typeof createTestApp>[0] = {}): TestContext {
  const ctx = {} as TestContext;
  beforeAll(async () => {
    Object.assign(ctx, await createTestApp(opts));
  });
  afterAll(async () => ctx.close());
  return ctx;
}
