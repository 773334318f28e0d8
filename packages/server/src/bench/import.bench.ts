import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../db/client.js';
import { ResponseCache } from '../lib/response-cache.js';
import { importDatabaseJson } from '../modules/backup/backup-import.service.js';
import { exportDatabaseJson } from '../modules/backup/backup.service.js';
import { seedDatabase } from '../seed/seed.js';
import { multiplyExport } from './multiply-export.js';

/**
 * `npm run bench`: a whole-database file 100× the demo (about 20,000 datasets) imported into a
 * fresh embedded database in a data folder, as `npm run import` does; the recompute afterwards is
 * timed on its own.
 */
async function main(factor: number) {
  const source = await openDatabase({ dataDir: 'memory://' });
  await seedDatabase(source.db, {
    demo: true,
    adminEmail: 'bench@example.org',
    adminPassword: 'bench-password-1',
  });
  const demo = (await exportDatabaseJson(source.db, 'all', 'command line')).join('');
  await source.close();
  const text = multiplyExport(demo, factor);
  const datasets = (JSON.parse(text) as { tables: Record<string, unknown[]> }).tables.bv_specifications!
    .length;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-import-bench-'));
  try {
    const target = await openDatabase({ dataDir: folder });
    await seedDatabase(target.db, {
      demo: false,
      adminEmail: 'bench@example.org',
      adminPassword: 'bench-password-1',
    });
    const deps = { db: target.db, cache: new ResponseCache() };
    const t = performance.now();
    const summary = await importDatabaseJson(deps, text, { mode: 'new', allowFull: true, recompute: true });
    const importMs = performance.now() - summary.recompute!.ms - t;
    const recompute = summary.recompute!;
    await target.close();
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')} (${os.cpus().length} CPUs)`,
    );
    console.log(
      `import of a ${factor}× database (${datasets} datasets, ${(text.length / 1e6).toFixed(1)} MB file) into a fresh embedded database: ` +
        `${(importMs / 1000).toFixed(1)} s (checks and one transaction: ${(summary.import_ms / 1000).toFixed(1)} s; target under 60 s)`,
    );
    console.log(
      `recompute afterwards, ${recompute.measurands} measurands in-process through the outbox, 500 per transaction: ${(recompute.ms / 1000).toFixed(1)} s`,
    );
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

const factorArg = process.argv.find((a) => a.startsWith('--import-factor='));
await main(factorArg ? Number(factorArg.split('=')[1]) : 100);
