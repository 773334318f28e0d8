// Issue 47, point 5 (decisions 096 and 098): a population's estimates recomputed live, at
// BENCH_FACETS_FACTOR× the demo data (default 100); PostgreSQL when DATABASE_URL is set, else the
// embedded database in its own thread as the server opens it. Printed:
//   1. the first ask of `GET /api/v1/measurands/{id}/metas?facet.*` (nothing kept) for several facet
//      sets on several measurands, one at a time: median and worst wall ms; fails when the worst is
//      above BENCH_FACETS_FIRST_CEILING_MS (1000);
//   2. the same answer once asked before (kept per facet set), under load from another process
//      (autocannon, BENCH_FACETS_CONNECTIONS = 10 connections, BENCH_SECONDS = 5 s): requests a
//      second and p99; fails when p99 is above BENCH_FACETS_KEPT_P99_CEILING_MS (100);
//   3. the specifications table for a population (`/api/v1/applications?facet.*`, every measurand of
//      the database): its first ask, a second population's first ask once the facet answers are
//      warm, and a kept ask, with the event loop's longest stall meanwhile (figures only).
// The machine's `uptime` is printed with the figures: on a shared machine they mean little without it.
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import { desc, eq, sql } from 'drizzle-orm';
import { analytes, bvSpecifications } from '../db/schema.js';
import {
  listAnalyteIdsWithDatasets,
  recomputeAnalyteMetas,
} from '../modules/meta-analysis/calculation/meta-calculation.service.js';
import { seedDatabase } from '../seed/seed.js';
import { loadApart } from './bare-node.js';
import { listenBenchApp, uptime } from './bench-app.js';
import { multiply, openBenchDatabase } from './bench-data.js';

const factor = Number(process.env.BENCH_FACETS_FACTOR ?? 100);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_FACETS_CONNECTIONS ?? 10);
const firstCeiling = Number(process.env.BENCH_FACETS_FIRST_CEILING_MS ?? 1000);
const keptCeiling = Number(process.env.BENCH_FACETS_KEPT_P99_CEILING_MS ?? 100);
const JSON_READ = { 'accept-encoding': 'br, gzip', accept: 'application/json' };

/** Facet sets a laboratory would choose: one facet, two facets, two values of one facet (a subgroup test). */
const FACET_SETS = [
  'facet.sex=males',
  'facet.sex=females',
  'facet.state=healthy',
  'facet.age=adults',
  'facet.sex=males,females',
  'facet.interval=weeks&facet.sex=mixed',
  'facet.state=athletes,healthy',
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timed(url: string): Promise<{ ms: number; status: number; body: string }> {
  const t = performance.now();
  const res = await fetch(url, { headers: JSON_READ });
  const body = await res.text();
  return { ms: performance.now() - t, status: res.status, body };
}

console.log(`\n### Population facets at ${factor}× the demo (${uptime()})`);
const database = await openBenchDatabase(`facets_${factor}`, { thread: true });
await seedDatabase(database.db, {
  demo: true,
  adminEmail: 'bench@example.org',
  adminPassword: 'bench-password-1',
});
if (factor > 1) await multiply(database, factor);
// The measurands with the most datasets, in the demo and among the last copies.
const busiest = await database.db
  .select({ id: bvSpecifications.analyteId, n: sql<number>`count(*)::int` })
  .from(bvSpecifications)
  .groupBy(bvSpecifications.analyteId)
  .orderBy(desc(sql`count(*)`), desc(bvSpecifications.analyteId))
  .limit(4);
const measurands = busiest.map((b) => b.id);
// Every measurand's global estimates as the recompute writes them (the copies have none until then),
// so the specifications table below has a row for each of the database's measurands and matrices.
for (const id of await listAnalyteIdsWithDatasets(database.db))
  await database.db.transaction((tx) => recomputeAnalyteMetas(tx, id));
const names = await database.db
  .select({ id: analytes.id, name: analytes.displayName })
  .from(analytes)
  .where(eq(analytes.id, measurands[0]!));
console.log(
  `Measurands asked: ${busiest.map((b) => `${b.id} (${b.n} datasets)`).join(', ')}; the first is ${names[0]?.name}`,
);

const { app, base } = await listenBenchApp(database);
let failed = false;

// 1. First asks: nothing kept for these facet sets.
const first: number[] = [];
for (const id of measurands)
  for (const set of FACET_SETS) {
    const r = await timed(`${base}/api/v1/measurands/${id}/metas?${set}`);
    if (r.status !== 200) throw new Error(`${id} ${set}: ${r.status} ${r.body.slice(0, 300)}`);
    first.push(r.ms);
  }
const worstFirst = Math.max(...first);
console.log(
  `First ask of /metas?facet.* (${first.length} answers, one at a time): median ${median(first).toFixed(1)} ms, worst ${worstFirst.toFixed(1)} ms (ceiling ${firstCeiling} ms)`,
);
if (worstFirst > firstCeiling) {
  console.log('FAIL: a first facet recompute is above BENCH_FACETS_FIRST_CEILING_MS');
  failed = true;
}

// 2. Kept: the same answers under load.
const keptUrl = `${base}/api/v1/measurands/${measurands[0]}/metas?facet.sex=males,females`;
const kept = await loadApart(keptUrl, { seconds, connections, headers: JSON_READ });
console.log(
  `Kept /metas?facet.sex=males,females at ${connections} connections for ${seconds} s: ${kept.rps.toFixed(0)} req/s, p99 ${kept.p99} ms (ceiling ${keptCeiling} ms)${kept.errors ? `, ${kept.errors} errors` : ''}`,
);
if (kept.p99 > keptCeiling || kept.errors > 0) {
  console.log('FAIL: a kept facet answer is above BENCH_FACETS_KEPT_P99_CEILING_MS');
  failed = true;
}

// 3. The specifications table for a population, every measurand of the database.
const delay = monitorEventLoopDelay({ resolution: 10 });
const table = async (query: string) => {
  delay.reset();
  delay.enable();
  const r = await timed(`${base}/api/v1/applications?${query}`);
  delay.disable();
  if (r.status !== 200) throw new Error(`applications ${query}: ${r.status} ${r.body.slice(0, 300)}`);
  const rows = (JSON.parse(r.body) as { data: unknown[] }).data.length;
  return `${r.ms.toFixed(0)} ms (${rows} rows, longest event-loop stall ${(delay.max / 1e6).toFixed(0)} ms)`;
};
console.log(`Specifications table, global estimates, first ask: ${await table('level=desirable')}`);
console.log(`Specifications table for facet.sex=males, first ask: ${await table('facet.sex=males')}`);
console.log(
  `… the same population at another level (facet answers kept): ${await table('facet.sex=males&level=optimal')}`,
);
console.log(`… kept: ${await table('facet.sex=males')}`);

await app.close();
await database.close();
console.log(`(${uptime()})`);
if (failed) process.exitCode = 1;
