import { performance } from 'node:perf_hooks';
import { count } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { bvSpecifications, changeLog } from '../db/schema.js';
import { FileCache } from '../lib/file-cache.js';
import {
  listAnalyteIdsWithDatasets,
  recomputeAnalyteMetas,
} from '../modules/meta-analysis/recompute/meta-recompute.service.js';
import { ReleaseService } from '../modules/releases/releases.service.js';
import { seedDatabase } from '../seed/seed.js';
import { multiply } from './bench-data.js';

/**
 * Time to build a whole release (issue 30.2: "the whole database at 100× the demo data in under a
 * minute"): `BENCH_RELEASE_FACTOR` (default 100) times the demo data, every estimate computed, then
 * one release asked for and awaited. Prints the build time, the files and the event loop's worst
 * stall during the build (the files are made in the export worker thread, the reads here).
 */
const factor = Number(process.env.BENCH_RELEASE_FACTOR ?? 100);
const database = await openDatabase({ dataDir: 'memory://' });
await seedDatabase(database.db, {
  demo: true,
  adminEmail: 'bench@example.org',
  adminPassword: 'bench-password-1',
});
if (factor > 1) await multiply(database, factor);
for (const id of await listAnalyteIdsWithDatasets(database.db)) {
  await database.db.transaction((tx) => recomputeAnalyteMetas(tx, id));
}
const [datasets] = await database.db.select({ n: count() }).from(bvSpecifications);
const [changes] = await database.db.select({ n: count() }).from(changeLog);
const config = loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent' });
const copies = FileCache.forConfig(config);
const lines: string[] = [];
const log = {
  info: (obj: object, msg: string) => lines.push(`${msg} ${JSON.stringify(obj)}`),
  error: (obj: object, msg: string) => lines.push(`${msg} ${JSON.stringify(obj)}`),
  warn: () => undefined,
} as unknown as FastifyBaseLogger;
const releases = new ReleaseService({ db: database.db, log, config }, copies);

let worstStall = 0;
let last = performance.now();
const probe = setInterval(() => {
  const now = performance.now();
  worstStall = Math.max(worstStall, now - last - 10);
  last = now;
}, 10);
const started = performance.now();
await releases.request('curator');
await releases.idle();
const ms = performance.now() - started;
clearInterval(probe);
const [release] = await releases.list();
console.log(
  `${factor}× demo data (${datasets!.n} datasets, ${changes!.n} changes in the feed): release ${release?.version ?? 'FAILED'} built in ${(ms / 1000).toFixed(1)} s; worst event-loop stall ${worstStall.toFixed(0)} ms`,
);
for (const f of release?.files ?? []) console.log(`  ${f.name}: ${(f.bytes / 1024 / 1024).toFixed(2)} MB`);
for (const l of lines) console.log(`  log: ${l}`);
await copies.close();
await database.close();
