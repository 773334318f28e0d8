import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../db/client.js';
import { exportDatabaseJson } from '../modules/backup/backup.service.js';
import { seedDatabase } from '../seed/seed.js';
import { multiplyExport } from './multiply-export.js';

const importCommand = fileURLToPath(new URL('../cli/import.js', import.meta.url));
const peakOnExit = fileURLToPath(new URL('./peak-on-exit.js', import.meta.url));

/** Runs `npm run import` (its built command) in its own process, as an operator would. */
function runImport(file: string, folder: string) {
  const child = spawn(process.execPath, ['--import', peakOnExit, importCommand, file, '--recompute'], {
    env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '', ADMIN_EMAIL: 'bench@example.org' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise<{ out: string; peakMb: number }>((resolve, reject) =>
    child.on('exit', (code) => {
      const peak = /bvdb-peak-rss-kb (\d+)/.exec(err);
      if (code !== 0 || !peak) reject(new Error(`the import exited with ${code}: ${out}${err}`));
      else resolve({ out, peakMb: Number(peak[1]) / 1024 });
    }),
  );
}

/**
 * `npm run bench`: a whole-database file 100× the demo (about 20,000 datasets) imported with
 * `npm run import --recompute` into a fresh embedded database in a data folder, in its own process:
 * the import's time, the recompute's afterwards, and the process's peak resident memory (issue 26.4,
 * decisions 061 and 073). The folder is created by a short-lived child of that process, whose own
 * peak is not the import's.
 */
async function main(factor: number): Promise<number> {
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
    const file = path.join(folder, 'bv_database.json');
    fs.writeFileSync(file, text);
    const { out, peakMb } = await runImport(file, path.join(folder, 'data'));
    const imported = /Imported .* in ([\d.]+) s\./.exec(out);
    const recomputed = /Recomputed the meta-analysis results of (\d+) measurands in ([\d.]+) s\./.exec(out);
    if (!imported || !recomputed) throw new Error(`unexpected output of the import:\n${out}`);
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')} (${os.cpus().length} CPUs)`,
    );
    console.log(
      `import of a ${factor}× database (${datasets} datasets, ${(text.length / 1e6).toFixed(1)} MB file) into a fresh embedded database: ` +
        `${imported[1]} s (checks and one transaction; ceiling BENCH_IMPORT_CEILING_S, 15 s)`,
    );
    console.log(
      `recompute afterwards, ${recomputed[1]} measurands in-process through the outbox, 500 per transaction: ${recomputed[2]} s`,
    );
    console.log(
      `peak resident memory of the import's process (npm run import --recompute): ${Math.round(peakMb)} MB (decision 073: 1,057 MB before it)`,
    );
    return Number(imported[1]);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

const factorArg = process.argv.find((a) => a.startsWith('--import-factor='));
const importSeconds = await main(factorArg ? Number(factorArg.split('=')[1]) : 100);
// The import's own time, not the recompute's (issue 44.5, decision 103).
const ceiling = Number(process.env.BENCH_IMPORT_CEILING_S ?? 15);
if (importSeconds > ceiling) {
  console.log(`FAIL: the import took ${importSeconds} s, above ${ceiling} s (BENCH_IMPORT_CEILING_S)`);
  process.exit(1);
}
