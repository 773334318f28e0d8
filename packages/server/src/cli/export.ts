import fs from 'node:fs';
import { exportDatabaseJson, type BackupScope } from '../modules/backup/index.js';
import { loadConfig } from '../config.js';
import { exportNotice } from '../lib/export-notice.js';
import { openCliDatabase } from './cli-database.js';

// npm run export -- [FILE] [--full | --published]: the whole database as one JSON file (stdout without FILE).
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const flags = new Set(args.filter((a) => a.startsWith('--')));
const unknown = [...flags].filter((f) => !['--full', '--published'].includes(f));
if (unknown.length > 0 || (flags.has('--full') && flags.has('--published'))) {
  console.error(
    'usage: npm run export -- [FILE] [--full | --published]\n' +
      '  (default: every measurand, reference, dataset and meta-analysis result, published or not;\n' +
      '   --full: also users, audit trail, mailing list, content pages and PDFs, a complete backup)',
  );
  process.exit(2);
}
const scope: BackupScope = flags.has('--full') ? 'full' : flags.has('--published') ? 'published' : 'all';
const database = await openCliDatabase();
try {
  // The operator sees everything; a --full backup is still written to the audit trail.
  const chunks = await exportDatabaseJson(database.db, scope, 'command line', {
    release: exportNotice(loadConfig()),
  });
  if (file) {
    const tmp = `${file}.partial`;
    const fd = fs.openSync(tmp, 'w');
    for (const c of chunks) fs.writeSync(fd, c);
    fs.closeSync(fd);
    fs.renameSync(tmp, file); // never a half-written backup under the real name
    console.error(`Wrote ${file} (${scope}, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB).`);
  } else {
    for (const c of chunks) {
      if (!process.stdout.write(c)) await new Promise((r) => process.stdout.once('drain', r));
    }
  }
} finally {
  await database.close();
}
