import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from './client.js';
import { templateKey } from './pglite-template.js';

// Decision 085: a new embedded database starts from a copy of an empty migrated one, named by
// PGlite's version and the migrations; initdb only when there is no whole copy.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-pglite-template-'));
let dir = '';
let n = 0;
const before = process.env.BVDB_PGLITE_TEMPLATE_DIR;
beforeEach(() => {
  dir = path.join(root, String(++n));
  process.env.BVDB_PGLITE_TEMPLATE_DIR = dir;
});
afterEach(() => {
  if (before === undefined) delete process.env.BVDB_PGLITE_TEMPLATE_DIR;
  else process.env.BVDB_PGLITE_TEMPLATE_DIR = before;
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const copies = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.tar')) : []);
const migrationCount = () =>
  (
    JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: unknown[];
    }
  ).entries.length;

async function tablesOf(database: Awaited<ReturnType<typeof openDatabase>>): Promise<string[]> {
  const res = await database.execute(
    "select table_name from information_schema.tables where table_schema = 'public' order by 1",
  );
  return res.rows.map((r) => (r as { table_name: string }).table_name).sort();
}

/** Rewrites the kept copy with `change` applied to it: what the next new database starts from. */
async function rewriteCopy(change: (pglite: PGlite) => Promise<void>): Promise<void> {
  const [file] = copies();
  const pglite = new PGlite({ loadDataDir: new Blob([fs.readFileSync(path.join(dir, file!))]) });
  await change(pglite);
  const dump = await pglite.dumpDataDir('none');
  await pglite.close();
  fs.writeFileSync(path.join(dir, file!), Buffer.from(await dump.arrayBuffer()));
}

describe('new embedded databases from the empty migrated copy', () => {
  it('keeps a copy after the first creation and starts the next database from it', async () => {
    const first = await openDatabase({ dataDir: 'memory://' });
    expect(copies()).toEqual([`empty-${templateKey(MIGRATIONS_FOLDER)}.tar`]);
    const tables = await tablesOf(first);
    await first.close();
    // A mark in the copy shows that the next database is made from it, not by initdb.
    await rewriteCopy((p) => p.exec('create table copy_mark (id int)').then(() => undefined));
    const second = await openDatabase({ dataDir: 'memory://' });
    expect(await tablesOf(second)).toEqual([...tables, 'copy_mark'].sort());
    const migrated = await second.execute('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(migrated.rows[0]).toEqual({ n: migrationCount() });
    await second.close();
  });

  it('creates a data folder from the copy, and the folder opens again as a database of its own', async () => {
    const seed = await openDatabase({ dataDir: 'memory://' });
    await seed.close();
    await rewriteCopy((p) => p.exec('create table copy_mark (id int)').then(() => undefined));
    const folder = path.join(root, `folder-${n}`);
    const created = await openDatabase({ dataDir: folder });
    expect(created.created).toBe(true);
    await created.execute('insert into copy_mark values (7)');
    await created.close();
    const reopened = await openDatabase({ dataDir: folder });
    expect(reopened.created).toBe(false);
    expect((await reopened.execute('select id from copy_mark')).rows).toEqual([{ id: 7 }]);
    await reopened.close();
  });

  it('discards a copy that does not hold every migration and makes the database by initdb', async () => {
    const seed = await openDatabase({ dataDir: 'memory://' });
    await seed.close();
    await rewriteCopy(async (p) => {
      await p.exec('create table copy_mark (id int); delete from drizzle.__drizzle_migrations');
    });
    const database = await openDatabase({ dataDir: 'memory://' });
    expect(await tablesOf(database)).not.toContain('copy_mark');
    const migrated = await database.execute('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(migrated.rows[0]).toEqual({ n: migrationCount() });
    await database.close();
    // …and the copy made anew by that initdb is whole again.
    expect(copies()).toHaveLength(1);
    const next = await openDatabase({ dataDir: 'memory://' });
    expect(await tablesOf(next)).not.toContain('copy_mark');
    await next.close();
  });

  it('names the copy by the migrations: a changed migration file is another copy', () => {
    const migrations = path.join(root, `migrations-${n}`);
    fs.cpSync(MIGRATIONS_FOLDER, migrations, { recursive: true });
    const key = templateKey(migrations);
    expect(key).toBe(templateKey(MIGRATIONS_FOLDER));
    const changed = path.join(root, `migrations-changed-${n}`);
    fs.cpSync(MIGRATIONS_FOLDER, changed, { recursive: true });
    const sqlFile = fs.readdirSync(changed).find((f) => f.endsWith('.sql'))!;
    fs.appendFileSync(path.join(changed, sqlFile), '\n-- changed\n');
    expect(templateKey(changed)).not.toBe(key);
  });

  it('keeps no copy when BVDB_PGLITE_TEMPLATE_DIR is off', async () => {
    process.env.BVDB_PGLITE_TEMPLATE_DIR = 'off';
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.close();
    expect(fs.existsSync(path.join(root, 'off'))).toBe(false);
    expect(fs.readdirSync(root).some((f) => f.endsWith('.tar'))).toBe(false);
  });
});
