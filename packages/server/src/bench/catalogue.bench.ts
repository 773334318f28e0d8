// Issue 26, points 2 and 3 (decision 039): each whole-catalogue answer against a bare Node http
// server sending the same bytes (same Content-Encoding, from memory), measured in the same run, on
// the demo database and on `factor`× its size (BENCH_CATALOGUE_FACTORS, default "1,100"); ten
// concurrent downloads against ten in a row; and the cost of one search by name at each size.
// Exits 1 (the bench fails, not the tests) when a ratio falls below BENCH_CATALOGUE_FLOOR.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { openDatabase } from '../db/client.js';
import { seedDatabase } from '../seed/seed.js';
import { serviceDeps } from '../lib/service-deps.js';
import { AnalyteSearch } from '../modules/search/search.service.js';
import { multiply } from './bench-data.js';
import { listenBenchApp } from './bench-app.js';
import { bareServer } from './bare-node.js';

const PATHS = [
  '/api/bv_specifications',
  '/api/v1/bulk/datasets',
  '/api/meta_calculations',
  '/api/bv_specifications/by_measurand',
  '/api/bv_specifications/specs_for_analytes',
  '/export/bv_database.csv',
  '/export/bv_database.xlsx',
  '/export/bv_database.json',
];
/** What a bulk script sends; the answer is br (or the file as it is for the xlsx). */
const HEADERS = { 'accept-encoding': 'br, gzip', accept: 'application/json' };
const SEARCHES = ['cre', 'glucose', 'alt', 'urine', 'hb', 'cholesterol', 'sodium', 'tsh', 'iron', 'crp'];

function fetchOnce(url: string): Promise<{ ms: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    http
      .get(url, { headers: HEADERS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ ms: performance.now() - t, body: Buffer.concat(chunks), headers: res.headers }),
        );
      })
      .on('error', reject);
  });
}

async function load(url: string, seconds: number) {
  const r = await autocannon({
    url,
    connections: 10,
    workers: 1,
    duration: seconds,
    timeout: 60,
    headers: HEADERS,
  });
  return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
}

async function benchFactor(factor: number, seconds: number) {
  const database = await openDatabase({ dataDir: 'memory://' });
  await seedDatabase(database.db, {
    demo: true,
    adminEmail: 'bench@example.org',
    adminPassword: 'bench-password-1',
  });
  if (factor > 1) await multiply(database, factor);
  // Pacing off: what is compared is the cost of serving, not the download budget (decision 035),
  // which a bare server does not have.
  const { app, base } = await listenBenchApp(database, {
    DOWNLOADS_MB_PER_SECOND: '0',
    READ_CACHE_PREFILL: 'true',
  });
  console.log(`\n### ${factor}× demo size, 10 connections, ${seconds} s each (Accept-Encoding: br, gzip)`);
  console.log(
    '| answer | first ask ms | KB sent | bvdb req/s | bare Node req/s | ratio | bvdb p99 ms | bare p99 ms | 10 at once ms | 10 in a row ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const ratios: number[] = [];
  for (const path of process.env.BENCH_CATALOGUE_PATHS?.split(',') ?? PATHS) {
    const first = await fetchOnce(base + path);
    const { body, headers } = await fetchOnce(base + path);
    const ours = await load(base + path, seconds);
    const bare = await bareServer(body, headers);
    const theirs = await load(bare.url, seconds);
    bare.close();
    let t = performance.now();
    await Promise.all(Array.from({ length: 10 }, () => fetchOnce(base + path)));
    const together = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < 10; i++) await fetchOnce(base + path);
    const inARow = performance.now() - t;
    const ratio = ours.rps / theirs.rps;
    ratios.push(ratio);
    console.log(
      `| ${path} | ${first.ms.toFixed(0)} | ${(body.length / 1024).toFixed(0)} | ${ours.rps.toFixed(0)} | ${theirs.rps.toFixed(0)} | ${ratio.toFixed(2)} | ${ours.p99} | ${theirs.p99} | ${together.toFixed(0)} | ${inARow.toFixed(0)} |${ours.errors ? ` (${ours.errors} errors)` : ''}`,
    );
  }
  // Search by name through the service (no answer kept): the cost of one search at this size.
  const search = new AnalyteSearch(serviceDeps(app));
  await search.findByName('warm-up', false);
  const rounds = 5;
  const t = performance.now();
  for (let i = 0; i < rounds; i++) for (const q of SEARCHES) await search.findByName(q, false);
  const perSearch = (performance.now() - t) / (rounds * SEARCHES.length);
  console.log(`\nSearch by name (service, nothing kept): ${perSearch.toFixed(2)} ms a search`);
  await app.close();
  await database.close();
  return { ratios, perSearch };
}

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
// 0.7 is the goal; 0.4 is what every answer kept on the shared, loaded 2-core machine (decision 039).
const floor = Number(process.env.BENCH_CATALOGUE_FLOOR ?? 0.4);
const factors = (process.env.BENCH_CATALOGUE_FACTORS ?? '1,100').split(',').map(Number);
let lowest = Infinity;
const searchCost: number[] = [];
for (const factor of factors) {
  const { ratios, perSearch } = await benchFactor(factor, seconds);
  lowest = Math.min(lowest, ...ratios);
  searchCost.push(perSearch);
}
if (searchCost.length > 1) {
  console.log(
    `Search cost at ${factors.at(-1)}× / at ${factors[0]}×: ${(searchCost.at(-1)! / searchCost[0]!).toFixed(2)} (issue 26 asks ≤ 1.5; search.bench holds the ceiling, decision 053)`,
  );
}
console.log(`Lowest ratio to bare Node: ${lowest.toFixed(2)} (floor ${floor})`);
if (lowest < floor) {
  console.log('FAIL: a whole-catalogue answer is below the floor');
  process.exitCode = 1;
}
