import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { count, eq } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/client.js';
import { seedDatabase } from '../seed/seed.js';
import { analytes, estimateVersions } from '../db/schema.js';
import { multiply } from './bench-data.js';
import { listenBenchApp } from './bench-app.js';
import {
  listAnalyteIdsWithDatasets,
  recomputeAnalyteMetas,
} from '../modules/meta-analysis/calculation/meta-calculation.service.js';

async function recomputeAll(database: Database) {
  const ids = await listAnalyteIdsWithDatasets(database.db);
  const t = performance.now();
  for (const id of ids) await database.db.transaction((tx) => recomputeAnalyteMetas(tx, id));
  return { measurands: ids.length, ms: performance.now() - t };
}

async function load(url: string, seconds: number, accept: string) {
  // As a browser asks: compressed answers accepted.
  const r = await autocannon({
    url,
    connections: 50,
    duration: seconds,
    headers: { 'accept-encoding': 'br, gzip', accept },
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

async function benchOne(factor: number, seconds: number) {
  const database = await openDatabase({ dataDir: 'memory://' });
  await seedDatabase(database.db, {
    demo: true,
    adminEmail: 'bench@example.org',
    adminPassword: 'bench-password-1',
  });
  if (factor > 1) await multiply(database, factor);
  const recompute = await recomputeAll(database);
  // Issue 29: versions are written only for estimates whose values changed; a second full
  // recompute over the same data changes none, so it writes none.
  const versions = async () => (await database.db.select({ n: count() }).from(estimateVersions))[0]!.n;
  const versionsBefore = await versions();
  const again = await recomputeAll(database);
  const versionsWritten = (await versions()) - versionsBefore;
  // The built app, so the server-rendered pages are measured too (`npm run bench` builds it).
  const { app, base } = await listenBenchApp(database, { READ_CACHE_PREFILL: 'true' });
  const [creat] = await database.db.select().from(analytes).where(eq(analytes.displayName, 'Creatinine'));
  const targets: [string, string][] = [
    ['/api/meta', '/api/meta'],
    ['/autocomplete?query=cre', '/autocomplete?query=cre'],
    ['/api/analyte_specifications/{id}', `/api/analyte_specifications/${creat!.id}`],
    ['/api/bv_specifications', '/api/bv_specifications'],
    ['/export_by_analyte/{id}.xlsx', `/export_by_analyte/${creat!.id}.xlsx`],
    ['page /analytes/{id} (server-rendered)', `/analytes/${creat!.id}`],
    ['page / (server-rendered)', '/'],
  ];
  // A page rendered afresh (first visit after a data change), one at a time.
  const renders: number[] = [];
  for (let i = 0; i < 20; i++) {
    app.deps.cache.invalidate();
    const t = performance.now();
    await app.inject({ url: `/analytes/${creat!.id}`, headers: { accept: 'text/html' } });
    renders.push(performance.now() - t);
  }
  renders.sort((a, b) => a - b);
  console.log(
    `\n### ${factor}× demo size — recompute of ${recompute.measurands} measurands: ${recompute.ms.toFixed(0)} ms; a second one: ${again.ms.toFixed(0)} ms, ${versionsWritten} estimate versions written (${versionsBefore} kept)`,
  );
  if (versionsWritten > 0) {
    console.log('FAIL: a recompute over unchanged data wrote estimate versions (issue 29)');
    process.exitCode = 1;
  }
  console.log(
    `server rendering of /analytes/{id} from cold reads: median ${renders[10]!.toFixed(1)} ms, slowest ${renders[19]!.toFixed(1)} ms`,
  );
  console.log('| endpoint | req/s | p50 ms | p99 ms |');
  console.log('|---|---|---|---|');
  for (const [label, path] of targets) {
    const r = await load(base + path, seconds, path.startsWith('/api') ? 'application/json' : 'text/html');
    console.log(`| ${label} | ${r.rps} | ${r.p50} | ${r.p99} |${r.non2xx ? ` (${r.non2xx} non-2xx)` : ''}`);
  }
  await app.close();
  await database.close();
}

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
// 100× too: a second full recompute there must write no estimate versions (issue 29).
for (const factor of (process.env.BENCH_API_SIZES ?? '1,10,100').split(',').map(Number))
  await benchOne(factor, seconds);
