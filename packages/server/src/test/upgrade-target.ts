import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { OpenOptions } from '../db/client.js';

/**
 * Where an upgrade test keeps a database of a previous release: on PGlite a folder on disk; on
 * PostgreSQL (TEST_DATABASE_URL) a database of its own, made by `create`. `remove` deletes either.
 */
export function upgradeTarget(name: string): {
  create: () => Promise<void>;
  openOptions: () => OpenOptions;
  remove: () => Promise<void>;
} {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), `bvdb-${name}-`));
  const dbName = `bvdb_${name.replace(/-/g, '_')}_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(statement);
    await c.end();
  };
  return {
    create: async () => {
      if (serverUrl) await run(`create database ${dbName}`);
    },
    openOptions: () => {
      if (!serverUrl) return { dataDir: folder };
      const url = new URL(serverUrl);
      url.pathname = `/${dbName}`;
      return { databaseUrl: url.toString(), dataDir: 'unused' };
    },
    remove: async () => {
      fs.rmSync(folder, { recursive: true, force: true });
      if (serverUrl) await run(`drop database if exists ${dbName} with (force)`);
    },
  };
}
