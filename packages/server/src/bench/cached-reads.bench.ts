// Issue 26, points 1 and 7 (decision 041): each kept public read against a bare Node http server
// sending the same bytes (same Content-Encoding, from memory), measured in the same run, on the demo
// database, with the load client in a process of its own: wrk when it is installed (issue 44.4), else
// autocannon. The two are loaded in short alternating slices (BENCH_SLICES pairs of
// BENCH_SLICE_SECONDS each, in the order bvdb, bare, bare, bvdb, …; decision 111): on a shared
// machine whose speed drifts and jumps within seconds, a pair of 1-s slices sees the same machine,
// where 5-s rounds did not (bare Node against itself ranged 0.61–1.41 in 5-s rounds). Printed per
// read: requests a second of both and their ratio, and the server's CPU per answer of both and the
// capacity ratio (answers per CPU second, bvdb's over bare Node's; the median of the pairs, with
// the middle half of the pairs' ratios). A first row measures bare Node against a second bare Node
// sending the same bytes (the method's own spread in this run). An estimate's history (issue 29)
// is among the reads. Exits 1 (the bench fails, not the tests) when a capacity ratio falls below
// BENCH_CACHED_READ_FLOOR. The whole-catalogue answers have their own bench beside this one
// (catalogue.bench.ts, BENCH_CATALOGUE_FLOOR).
import os from 'node:os';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { bvSpecifications, estimates } from '../db/schema.js';
import { seedDatabase } from '../seed/seed.js';
import { bareServer, type Fetched, fetchOnce, loadApart, loadClient } from './bare-node.js';

const JSON_READ = { 'accept-encoding': 'br, gzip', accept: 'application/json' };
/** What a browser sends for a page. */
const PAGE_READ = {
  'accept-encoding': 'gzip, deflate, br',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};

const seconds = Math.max(1, Number(process.env.BENCH_SLICE_SECONDS ?? 1));
// Twenty pairs of 1-s slices (decision 111): bare Node against itself measured 0.98–1.03 in three
// runs (median of the pairs; pairs ranged 0.54–2.08), where the median of five 5-s rounds of one
// read ranged 0.65–0.88 between runs on the same build.
const slices = Math.max(1, Number(process.env.BENCH_SLICES ?? 20));
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
  `\n### Kept public reads against bare Node, demo size, ${connections} connections, ${slices} pairs of ${seconds}-s slices each, load client ${loadClient === 'wrk' ? 'wrk (installed)' : 'autocannon (wrk is not installed, or BENCH_LOAD_CLIENT=autocannon)'} (load average ${load()})`,
);
console.log(
  '| read | KB sent | encoding | bvdb req/s | bare Node req/s | throughput ratio | bvdb CPU µs / answer | bare CPU µs / answer | capacity ratio (middle half of the pairs) | bvdb p99 ms | bare p99 ms |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
type Slice = Awaited<ReturnType<typeof loadApart>>;
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const quantile = (xs: number[], q: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const collect = () => (globalThis as { gc?: () => void }).gc?.();

/**
 * `slices` pairs of slices of `first` and `second`, in the order first, second, second, first, …
 * (a drift of the machine weighs on both alike), each on a collected heap (node --expose-gc, as
 * scripts/bench.mjs runs it): the servers share this process, and the garbage one left would be
 * collected in the other's slice, on its CPU.
 */
async function alternate(first: string, second: string, headers: Record<string, string>) {
  const load = { seconds, connections, headers };
  const ones: Slice[] = [];
  const others: Slice[] = [];
  for (let i = 0; i < slices; i++) {
    const order: [string, Slice[]][] = [
      [first, ones],
      [second, others],
    ];
    for (const [url, into] of i % 2 === 0 ? order : order.reverse()) {
      collect();
      into.push(await loadApart(url, load));
    }
  }
  return { ones, others };
}

/** One row of the table: `ours` against `theirs`, pair by pair. */
function row(label: string, sent: Fetched, ours: Slice[], theirs: Slice[]): number {
  const errors = sum(ours.map((o) => o.errors));
  if (errors) console.log(`(${label}: ${errors} errors)`);
  const throughput = ours.map((o, i) => o.rps / theirs[i]!.rps);
  // Answers per CPU second of the server, bvdb's over bare Node's (the steadier figure on a shared machine).
  const capacity = ours.map((o, i) => theirs[i]!.cpuMsPerThousand / o.cpuMsPerThousand);
  const ratio = quantile(capacity, 0.5);
  const mean = (xs: Slice[], f: (s: Slice) => number) => sum(xs.map(f)) / xs.length;
  console.log(
    `| ${label} | ${(sent.body.length / 1024).toFixed(1)} | ${sent.headers['content-encoding'] ?? 'none'} | ` +
      `${mean(ours, (o) => o.rps).toFixed(0)} | ${mean(theirs, (o) => o.rps).toFixed(0)} | ` +
      `${quantile(throughput, 0.5).toFixed(2)} | ` +
      `${quantile(
        ours.map((o) => o.cpuMsPerThousand),
        0.5,
      ).toFixed(1)} | ${quantile(
        theirs.map((o) => o.cpuMsPerThousand),
        0.5,
      ).toFixed(1)} | ` +
      `**${ratio.toFixed(2)}** (${quantile(capacity, 0.25).toFixed(2)}–${quantile(capacity, 0.75).toFixed(2)}) | ` +
      `${Math.max(...ours.map((o) => o.p99))} | ${Math.max(...theirs.map((o) => o.p99))} |`,
  );
  return ratio;
}

const chosen = reads.filter((r) => !only || only.includes(r.path));
// The method's own spread: bare Node against a second bare Node sending the same bytes (the page's,
// the read nearest the floor, when it is measured). Printed, not judged.
const calibration = chosen.find((r) => r.path.startsWith('/analytes/')) ?? chosen[0];
if (calibration) {
  const sent = await fetchOnce(base + calibration.path, calibration.headers);
  const one = await bareServer(sent.body, sent.headers);
  const other = await bareServer(sent.body, sent.headers);
  const { ones, others } = await alternate(one.url, other.url, calibration.headers);
  row(`bare Node against bare Node (${calibration.path}'s bytes)`, sent, ones, others);
  one.close();
  other.close();
}
let lowest = Infinity;
for (const { path, headers } of chosen) {
  await fetchOnce(base + path, headers);
  const sent = await fetchOnce(base + path, headers);
  if (sent.status !== 200) throw new Error(`${path}: ${sent.status} ${sent.body.toString()}`);
  const bare = await bareServer(sent.body, sent.headers);
  const { ones: ours, others: theirs } = await alternate(base + path, bare.url, headers);
  bare.close();
  lowest = Math.min(lowest, row(path, sent, ours, theirs));
}
await app.close();
await database.close();
console.log(`Lowest ratio to bare Node: ${lowest.toFixed(2)} (floor ${floor}; load average ${load()})`);
if (lowest < floor) {
  console.log('FAIL: a kept public read is below the floor (BENCH_CACHED_READ_FLOOR)');
  process.exitCode = 1;
}
