// Issue 26, points 1 and 7 (decision 041): each kept public read against a bare Node http server
// sending the same bytes (same Content-Encoding, from memory), measured in the same run, in
// alternating rounds (BENCH_ROUNDS, default 5, of BENCH_SECONDS each, which goes first alternating), on the demo database, with
// the load client in a process of its own: wrk when it is installed (issue 44.4), else autocannon. Printed per read: requests a second of
// both and their ratio, and the server's CPU per answer of both and the capacity ratio (answers
// per CPU second, bvdb's over bare Node's; the median of the rounds). An estimate's history
// (issue 29) is among the reads. Exits 1 (the bench fails,
// not the tests) when a capacity ratio falls below BENCH_CACHED_READ_FLOOR. The whole-catalogue answers have their own bench beside
// this one (catalogue.bench.ts, BENCH_CATALOGUE_FLOOR).
import os from 'node:os';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { bvSpecifications, estimates } from '../db/schema.js';
import { seedDatabase } from '../seed/seed.js';
import { bareServer, fetchOnce, loadApart, loadClient } from './bare-node.js';

const JSON_READ = { 'accept-encoding': 'br, gzip', accept: 'application/json' };
/** What a browser sends for a page. */
const PAGE_READ = {
  'accept-encoding': 'gzip, deflate, br',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
// Five rounds: single rounds of one read range 0.71–1.14 on a quiet 2-core machine (2026-11-29),
// so a median of three could fall under the floor on a read at ~0.93 (decision 089, amended).
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
// Issue 44.4 (decision 089): a kept read costs what Node costs, 0.85 of a bare Node server or more
// (it was 0.5 under decision 041, when each answer carried 15 headers).
const floor = Number(process.env.BENCH_CACHED_READ_FLOOR ?? 0.85);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

const database = await openDatabase({ dataDir: 'memory://' });
await seedDatabase(database.db, {
  demo: true,
  adminEmail: 'bench@example.org',
  adminPassword: 'bench-password-1',
});
const [first] = await database.db
  .select({ analyteId: bvSpecifications.analyteId })
  .from(bvSpecifications)
  .limit(1);
const measurand = first?.analyteId ?? 1;
// An estimate's history (issue 29): a cached public read like the others.
const [estimate] = await database.db.select({ id: estimates.id }).from(estimates).limit(1);
// Lifted limits: the figure is what a read costs the server, not the limiter's 429s (the
// accounting itself still runs for every request).
const app = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000000' }),
  database,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const reads: { path: string; headers: Record<string, string> }[] = [
  { path: '/api/meta', headers: JSON_READ },
  { path: '/autocomplete?query=so', headers: JSON_READ },
  { path: `/api/analyte_specifications/${measurand}`, headers: JSON_READ },
  { path: '/api/meta_calculations', headers: JSON_READ },
  { path: `/analytes/${measurand}`, headers: PAGE_READ },
  ...(estimate ? [{ path: `/api/v1/estimates/${estimate.id}/history`, headers: JSON_READ }] : []),
];
const only = process.env.BENCH_CACHED_READ_PATHS?.split(',');

console.log(
  `\n### Kept public reads against bare Node, demo size, ${connections} connections, ${rounds} × ${seconds} s each, load client ${loadClient === 'wrk' ? 'wrk (installed)' : 'autocannon (wrk is not installed, or BENCH_LOAD_CLIENT=autocannon)'} (load average ${load()})`,
);
console.log(
  '| read | KB sent | encoding | bvdb req/s | bare Node req/s | throughput ratio (each round) | bvdb CPU ms / 1000 | bare CPU ms / 1000 | capacity ratio (each round) | bvdb p99 ms | bare p99 ms |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
let lowest = Infinity;
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const { path, headers } of reads.filter((r) => !only || only.includes(r.path))) {
  await fetchOnce(base + path, headers);
  const sent = await fetchOnce(base + path, headers);
  if (sent.status !== 200) throw new Error(`${path}: ${sent.status} ${sent.body.toString()}`);
  const bare = await bareServer(sent.body, sent.headers);
  const ours: Awaited<ReturnType<typeof loadApart>>[] = [];
  const theirs: Awaited<ReturnType<typeof loadApart>>[] = [];
  // Alternating which goes first each round, so a drift of the machine (another process waking, the
  // CPU's clock) weighs on both sides alike rather than always on the second (decision 089).
  for (let i = 0; i < rounds; i++) {
    const load = { seconds, connections, headers };
    // Each side starts on a collected heap (node --expose-gc, as scripts/bench.mjs runs it): the
    // two servers share this process, and the garbage one left would be collected in the other's
    // round, on its CPU.
    (globalThis as { gc?: () => void }).gc?.();
    if (i % 2 === 0) {
      ours.push(await loadApart(base + path, load));
      (globalThis as { gc?: () => void }).gc?.();
      theirs.push(await loadApart(bare.url, load));
    } else {
      theirs.push(await loadApart(bare.url, load));
      (globalThis as { gc?: () => void }).gc?.();
      ours.push(await loadApart(base + path, load));
    }
  }
  bare.close();
  const errors = sum(ours.map((o) => o.errors));
  if (errors) console.log(`(${path}: ${errors} errors)`);
  const throughput = ours.map((o, i) => o.rps / theirs[i]!.rps);
  // Answers per CPU second of the server, bvdb's over bare Node's (the steadier figure on a shared machine).
  const capacity = ours.map((o, i) => theirs[i]!.cpuMsPerThousand / o.cpuMsPerThousand);
  const ratio = median(capacity);
  lowest = Math.min(lowest, ratio);
  const list = (xs: number[]) => xs.map((r) => r.toFixed(2)).join(', ');
  console.log(
    `| ${path} | ${(sent.body.length / 1024).toFixed(1)} | ${sent.headers['content-encoding'] ?? 'none'} | ` +
      `${(sum(ours.map((o) => o.rps)) / rounds).toFixed(0)} | ${(sum(theirs.map((o) => o.rps)) / rounds).toFixed(0)} | ` +
      `${median(throughput).toFixed(2)} (${list(throughput)}) | ` +
      `${median(ours.map((o) => o.cpuMsPerThousand)).toFixed(0)} | ${median(theirs.map((o) => o.cpuMsPerThousand)).toFixed(0)} | ` +
      `**${ratio.toFixed(2)}** (${list(capacity)}) | ${Math.max(...ours.map((o) => o.p99))} | ${Math.max(...theirs.map((o) => o.p99))} |`,
  );
}
await app.close();
await database.close();
console.log(`Lowest ratio to bare Node: ${lowest.toFixed(2)} (floor ${floor}; load average ${load()})`);
if (lowest < floor) {
  console.log('FAIL: a kept public read is below the floor (BENCH_CACHED_READ_FLOOR)');
  process.exitCode = 1;
}
