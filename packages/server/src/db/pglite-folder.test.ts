import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from './client.js';
import { acquireFolderLock, FolderLockedError } from './folder-lock.js';
import { createPgliteFolder, PgliteCreateError } from './pglite-folder.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-pglite-folder-'));
let n = 0;
const freshFolder = () => path.join(root, String(++n));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const journal = () =>
  (
    JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    }
  ).entries.map((e) => e.tag);

// Decision 073: a fresh data folder is created (initdb, migrations) in a child process whose
// memory is returned when it exits; the server or the command then opens the finished folder.
describe('creating an embedded data folder in a child process', () => {
  it('creates, migrates and opens a fresh folder, holding its lock all along', async () => {
    const folder = freshFolder();
    const created: number[] = [];
    let applied: string[] = [];
    const database = await openDatabase({
      dataDir: folder,
      onCreated: (ms) => created.push(ms),
      onMigrated: (tags) => (applied = tags),
    });
    try {
      expect(created).toHaveLength(1);
      expect(database.created).toBe(true);
      expect(applied).toEqual(journal());
      const res = await database.execute(
        `select table_name from information_schema.tables where table_schema = 'public'`,
        [],
      );
      const tables = (res.rows as { table_name: string }[]).map((r) => r.table_name);
      expect(tables).toEqual(expect.arrayContaining(['analytes', 'bv_specifications', 'users']));
      expect(fs.existsSync(path.join(folder, 'pgdata.creating'))).toBe(false);
      await expect(openDatabase({ dataDir: folder })).rejects.toBeInstanceOf(FolderLockedError);
    } finally {
      await database.close();
    }
    // Reopened: nothing created, nothing to migrate.
    const again = await openDatabase({ dataDir: folder, onCreated: (ms) => created.push(ms) });
    expect(again.created).toBe(false);
    expect(created).toHaveLength(1);
    await again.close();
  });

  it('reports a failing child as an error naming the cause, and leaves no half-made database', async () => {
    const pgdata = path.join(freshFolder(), 'pgdata');
    const err = await createPgliteFolder(pgdata, {
      migrationsFolder: path.join(root, 'no-such-migrations'),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PgliteCreateError);
    expect((err as Error).message).toMatch(
      /Creating the embedded database in .* failed: it exited with code 1: .*journal/i,
    );
    expect(fs.existsSync(pgdata)).toBe(false);
    expect(fs.existsSync(`${pgdata}.creating`)).toBe(false);
  });

  it('kills a child that does not finish in time instead of waiting for ever', async () => {
    const pgdata = path.join(freshFolder(), 'pgdata');
    const err = await createPgliteFolder(pgdata, {
      migrationsFolder: MIGRATIONS_FOLDER,
      timeoutMs: 50,
    }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/did not finish in 0 s/);
    expect(fs.existsSync(`${pgdata}.creating`)).toBe(false);
  });

  it('refuses a pgdata folder holding files but no database, and releases the lock', async () => {
    const folder = freshFolder();
    fs.mkdirSync(path.join(folder, 'pgdata'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'pgdata', 'stray.txt'), 'not a database');
    await expect(openDatabase({ dataDir: folder })).rejects.toThrow(/holds files but no database/);
    const lock = await acquireFolderLock(folder);
    await lock.release();
  });
});
