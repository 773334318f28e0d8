import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * A new embedded database starts from a copy of an empty, migrated one (decision 090). PGlite 0.5
 * runs PostgreSQL's initdb inside WebAssembly for every new database: 3–10 s of one core, the
 * largest part of a first start, of `npm run import` into a new folder (issue 44.5) and of every
 * test file's throw-away database. Loading PGlite's own dump of an empty database made by this
 * version of PGlite and these migrations takes a tenth of that. The copy is a cache, never the
 * truth: it is named by a hash of PGlite's version and every migration file, made by the first
 * creation that finds none, written atomically, and any failure to read or write it falls back to
 * initdb. It lives in the server package's `node_modules/.cache` (the usual place of tools' caches,
 * never committed, dropped by `npm ci`); BVDB_PGLITE_TEMPLATE_DIR moves it, `off` turns it off.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_DIR = path.resolve(here, '../../node_modules/.cache/bvdb-pglite-template');

function templateDir(): string | undefined {
  const setting = process.env.BVDB_PGLITE_TEMPLATE_DIR;
  if (setting === 'off') return undefined;
  return setting || DEFAULT_DIR;
}

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  let dir = path.dirname(require.resolve('@electric-sql/pglite'));
  for (let i = 0; i < 5; i++, dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite') return pkg.version ?? 'unknown';
    }
  }
  return 'unknown';
}

const keys = new Map<string, string>();

/** The copy's name: PGlite's version and the migrations, byte for byte. */
export function templateKey(migrationsFolder: string): string {
  const known = keys.get(migrationsFolder);
  if (known) return known;
  const hash = createHash('sha256').update(`pglite ${pgliteVersion()}\n`);
  const files = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      .sort();
  for (const file of files(migrationsFolder)) {
    hash
      .update(path.relative(migrationsFolder, file))
      .update('\0')
      .update(fs.readFileSync(file))
      .update('\0');
  }
  const key = hash.digest('hex').slice(0, 32);
  keys.set(migrationsFolder, key);
  return key;
}

function templateFile(migrationsFolder: string): string | undefined {
  const dir = templateDir();
  if (!dir) return undefined;
  try {
    return path.join(dir, `empty-${templateKey(migrationsFolder)}.tar`);
  } catch {
    return undefined; // no such migrations: the creation says so itself
  }
}

/** The empty migrated database for these migrations, when a copy was made before. */
function readTemplate(migrationsFolder: string): Blob | undefined {
  const file = templateFile(migrationsFolder);
  if (!file) return undefined;
  try {
    return new Blob([fs.readFileSync(file)]);
  } catch {
    return undefined;
  }
}

/**
 * Keeps a copy of `pglite`, an empty database with every migration applied, for the next
 * creation. Best effort: a folder that cannot be written (a read-only image) only costs time.
 */
async function saveTemplate(pglite: PGlite, migrationsFolder: string): Promise<void> {
  const file = templateFile(migrationsFolder);
  if (!file || fs.existsSync(file)) return;
  try {
    // Not compressed: ≈ 40 MB that load in half the time of the 5 MB gzip.
    const dump = await pglite.dumpDataDir('none');
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(temp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(temp, file);
    // The copies of earlier migrations are of no further use.
    for (const old of fs.readdirSync(dir)) {
      if (old.startsWith('empty-') && old.endsWith('.tar') && path.join(dir, old) !== file)
        fs.rmSync(path.join(dir, old), { force: true });
    }
  } catch {
    // a cache: nothing depends on it
  }
}

// `new PGlite(undefined, options)` ignores the options: an in-memory database takes them first.
const newPglite = (dataDir: string | undefined, options: PGliteOptions) =>
  dataDir ? new PGlite(dataDir, options) : new PGlite(options);

function discardTemplate(migrationsFolder: string): void {
  const file = templateFile(migrationsFolder);
  if (file) fs.rmSync(file, { force: true });
}

function journalLength(migrationsFolder: string): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** Every migration of the folder is recorded as applied: the copy is whole. */
async function holdsEveryMigration(pglite: PGlite, migrationsFolder: string): Promise<boolean> {
  try {
    const res = await pglite.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    return res.rows[0]?.n === journalLength(migrationsFolder);
  } catch {
    return false;
  }
}

/**
 * Starts a new embedded database (in `dataDir`, or in memory when undefined) from the empty
 * migrated copy when there is a whole one; otherwise by initdb, and then `keep()` (after the
 * migrations) saves the copy for the next time. A copy that does not hold every migration is
 * discarded and the database made by initdb.
 */
export async function startNewPglite(
  dataDir: string | undefined,
  migrationsFolder: string,
  options: PGliteOptions = {},
): Promise<{ pglite: PGlite; keep: () => Promise<void> }> {
  const template = readTemplate(migrationsFolder);
  if (template) {
    const pglite = newPglite(dataDir, { ...options, loadDataDir: template });
    if (await holdsEveryMigration(pglite, migrationsFolder)) return { pglite, keep: async () => undefined };
    await pglite.close().catch(() => undefined);
    discardTemplate(migrationsFolder);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const pglite = newPglite(dataDir, options);
  await pglite.waitReady;
  return { pglite, keep: () => saveTemplate(pglite, migrationsFolder) };
}
