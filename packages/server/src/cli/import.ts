import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { ResponseCache } from '../lib/response-cache.js';
import { AppError } from '../lib/app-error.js';
import { importDatabaseJson, type ImportMode } from '../modules/backup/index.js';
import { backupFolderFor } from '../modules/backup/index.js';
import { seedDatabase } from '../seed/seed.js';
import { openCliDatabase } from './cli-database.js';

const USAGE =
  'usage: npm run import -- FILE [--replace [--clear-absent] | --merge] [--recompute] [--dry-run]\n' +
  '  FILE            a whole-database file from /export/bv_database.json or npm run export\n' +
  '  --replace       replace the tables the file carries (the database is first saved as a complete\n' +
  '                  backup in DATA_DIR/backups); the tables it leaves out are kept\n' +
  '  --clear-absent  with --replace: also empty the tables the file leaves out\n' +
  '  --merge         add the file to them, overwriting records with the same ids\n' +
  '  --recompute     compute the meta-analysis results with bvdb’s rules instead of importing them\n' +
  '  --dry-run       check the file and say what would happen (and what it deletes); write nothing';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const flags = new Set(args.filter((a) => a.startsWith('--')));
const known = ['--replace', '--merge', '--clear-absent', '--recompute', '--dry-run', '--help'];
const unknown = [...flags].filter((f) => !known.includes(f));
const conflicting =
  (flags.has('--replace') && flags.has('--merge')) ||
  (flags.has('--clear-absent') && !flags.has('--replace'));
if (!file || flags.has('--help') || unknown.length > 0 || conflicting) {
  if (unknown.length > 0) console.error(`unknown option ${unknown.join(', ')}`);
  console.error(USAGE);
  process.exit(2);
}
// Read as bytes here (a file that cannot be read is told before the database is opened), handed to
// the import, which parses them a row at a time, and then let go: the parsed rows alone stay
// (decision 073).
let bytes: Buffer | undefined;
try {
  bytes = fs.readFileSync(file);
} catch (err) {
  console.error(`Cannot read ${file}: ${(err as Error).message}`);
  process.exit(66); // EX_NOINPUT
}
const mode: ImportMode = flags.has('--replace') ? 'replace' : flags.has('--merge') ? 'merge' : 'new';
const config = loadConfig();
// A fresh data folder or database is created and migrated as `npm start` would; the demo is never
// seeded under an import (the file is the data).
const database = await openCliDatabase();
try {
  const seeded = await seedDatabase(database.db, {
    demo: false,
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
  });
  const takeBytes = () => {
    const taken = bytes!;
    bytes = undefined;
    return taken;
  };
  const summary = await importDatabaseJson({ db: database.db, cache: new ResponseCache() }, takeBytes, {
    mode,
    recompute: flags.has('--recompute'),
    dryRun: flags.has('--dry-run'),
    clearAbsent: flags.has('--clear-absent'),
    allowFull: true,
    backupFolder: backupFolderFor(config),
  });
  if (summary.backup_file) {
    console.log(`Saved the database as it was in ${path.join(backupFolderFor(config), summary.backup_file)}`);
  }
  const verb = summary.written ? 'Imported' : 'Would import';
  for (const t of summary.tables) {
    const over = t.overwritten.length;
    const overwrite =
      over > 0
        ? `, ${summary.written ? 'overwrote' : 'would overwrite'} ${over} (ids ${t.overwritten.slice(0, 10).join(', ')}${over > 10 ? ', …' : ''})`
        : '';
    console.log(`  ${t.name}: ${t.rows} rows${overwrite}`);
  }
  if (summary.deletes.length > 0) {
    console.log(summary.written ? 'Deleted:' : 'Would delete:');
    for (const d of summary.deletes) console.log(`  ${d.name}: ${d.rows} rows`);
  }
  if (summary.returned_to_final) {
    console.log(
      `${summary.returned_to_final} datasets "in appraisal" had no round left: they are final again.`,
    );
  }
  const where =
    database.kind === 'pglite' ? `the embedded database in ${config.dataDir}` : 'the PostgreSQL server';
  const what = {
    full: 'a complete backup',
    all: 'a whole-database export',
    published: 'an export of the published records',
  }[summary.scope];
  console.log(
    `${verb} ${what} (format ${summary.format_version}, ${summary.exported_at ?? 'undated'}) into ${where}` +
      (summary.written
        ? ` in ${(summary.import_ms / 1000).toFixed(1)} s.`
        : '; nothing written (--dry-run).'),
  );
  if (summary.withheld) {
    const rows = Object.entries(summary.withheld).map(([table, n]) => `${n} ${table}`);
    console.log(`The file is partial: its maker could not read ${rows.join(', ')} (decision 038).`);
  }
  if (summary.recompute) {
    console.log(
      `Recomputed the meta-analysis results of ${summary.recompute.measurands} measurands in ${(summary.recompute.ms / 1000).toFixed(1)} s.`,
    );
  }
  if (seeded.generatedAdminPassword && summary.scope !== 'full') {
    console.log(
      `Created the administrator ${seeded.adminEmail} with the password ${seeded.generatedAdminPassword} (change it after signing in).`,
    );
  }
} catch (err) {
  if (err instanceof AppError) {
    console.error(err.message);
    for (const f of (err.extra.fields ?? []).slice(1, 20)) console.error(`  ${f.message}`);
    process.exitCode = 1;
  } else {
    throw err;
  }
} finally {
  await database.close();
}
