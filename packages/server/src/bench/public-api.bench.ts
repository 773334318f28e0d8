// Issue 14: the public reads a bulk consumer makes, on the demo database and on one `factor`× its size
// (BENCH_API_FACTORS, default "1,100"): paged and single-record reads at 50 connections over many
// distinct URLs (so most answers are not served from the response cache), and the whole-catalogue
// answers (the unpaged legacy list and the v1 bulk call, measured first, on an idle server): time to
// first byte, throughput, and the server's heap while 10 of them stream at once; and the cost of
// one search by name (issue 26, point 3). With DATABASE_URL, on a new database of that PostgreSQL
// server for each factor (dropped afterwards); otherwise on an embedded PGlite in a thread of its
// own, as the server opens it (BENCH_API_PGLITE_IN_PROCESS=1: in the bench's own thread).
// BENCH_API_WARM=1: the first pass starts once the background fill of the kept public rows is over
// (what a server in use has), not right after the start (decision 065).
// First of all, fifty distinct first-time pages of 100 asked at once (issue 26, point 4; decisions
// 069, 072), legacy and v1, the slowest answer of each fifty; the same count of full pages at every
// factor, so 100× is compared with 1× for the same work. The server starts as `npm start` does (its
// warm-up keeps the published rows before `/readyz` says ready, decision 072): a round while it warms
// up (printed, not held: a load balancer sends nothing yet), a round as soon as `/readyz` answers
// 200, then three rounds once the fill and the compressions' upgrades are over (their median). Fails
// when the ready or the kept figure at the last factor is more than BENCH_FIRST_PAGES_RATIO_CEILING
// (default 3) times the first factor's. BENCH_API_PASSES=0 leaves out the autocannon passes and the
// search (the first pages alone). The first pass of the paged and single-record reads is run
// BENCH_FIRST_PASS_ROUNDS times (default 3), each a first pass again, judged on the median of its p99s
// (issue 44.3, decision 110).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { seedDatabase } from '../seed/seed.js';
import { bvSpecifications } from '../db/schema.js';
import { serviceDeps } from '../lib/service-deps.js';
import { fragmentChains } from '../lib/fragment-chains.js';
import { compaction, upgrades } from '../lib/response-cache.js';
import { AnalyteSearch } from '../modules/search/search.service.js';
import { warmUpBeforeReady } from '../modules/datasets/warm-up.js';
import { preparedRecordsIdle } from '../modules/datasets/index.js';
import { multiply, openBenchDatabase, untilIdle } from './bench-data.js';
import { uptime } from './bench-app.js';
import { startCpuProfile } from './cpu-profile.js';

/**
 * The load client runs in its own thread (autocannon's worker mode), so the server's event loop is
 * not also the client's: what is measured is the server. The worker picks a random path from a list
 * written to a file (a function cannot be handed to a thread).
 */
const PICKER = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-bench-')), 'pick-path.cjs');
fs.writeFileSync(
  PICKER,
  `const paths = JSON.parse(require('fs').readFileSync(process.env.BVDB_BENCH_PATHS, 'utf8'));
module.exports = (req) => ({ ...req, path: paths[Math.floor(Math.random() * paths.length)] });`,
);

async function load(base: string, paths: string[], seconds: number) {
  const list = `${PICKER}.${Math.random().toString(36).slice(2)}.json`;
  fs.writeFileSync(list, JSON.stringify(paths));
  process.env.BVDB_BENCH_PATHS = list;
  const r = await autocannon({
    url: base,
    connections: 50,
    workers: 1,
    duration: seconds,
    // Long enough that a slow answer is measured, not abandoned and sent again (a re-sent request
    // leaves the abandoned one queued in the server, and the backlog spoils the next measurement).
    timeout: 60,
    headers: { 'accept-encoding': 'br, gzip', accept: 'application/json' },
    requests: [{ setupRequest: PICKER }],
  });
  fs.rmSync(list);
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

/** Time to the first byte of the body and to the last, for one whole-catalogue answer. */
function timeOne(url: string): Promise<{ ttfb: number; total: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    let ttfb = 0;
    let bytes = 0;
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) ttfb = performance.now() - t;
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ ttfb, total: performance.now() - t, bytes }));
      })
      .on('error', reject);
  });
}

const FIRST_PAGES = 50;
const KEPT_ROUNDS = 3;

/**
 * Each path asked once, all at once (one connection each): ms until each answer's last byte, and how
 * many answers were not a 200 (a 503 when the database kept a request waiting too long).
 */
async function askAtOnce(base: string, paths: string[]): Promise<{ times: number[]; failed: number }> {
  const agent = new http.Agent({ keepAlive: false, maxSockets: paths.length });
  let failed = 0;
  const headers = { 'accept-encoding': 'br, gzip', accept: 'application/json' };
  const times = await Promise.all(
    paths.map(
      (p) =>
        new Promise<number>((resolve, reject) => {
          const t = performance.now();
          http
            .get(base + p, { agent, headers }, (res) => {
              if (res.statusCode !== 200) failed++;
              res.resume();
              res.on('end', () => resolve(performance.now() - t));
            })
            .on('error', reject);
        }),
    ),
  );
  agent.destroy();
  return { times, failed };
}

/** The nearest-rank 99th percentile (of fifty answers, the slowest). */
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(0.99 * xs.length) - 1]!;

/**
 * Fifty distinct full pages of 100 for `round` (0: while warming up, 1: as soon as ready, 2: after
 * the fill): offsets spread over the table, rounds interleaved so no page of one round was asked in
 * another.
 */
function firstPageOffsets(rows: number, round: number): number[] {
  const step = Math.max(1, Math.floor((rows - 100) / (3 * FIRST_PAGES)));
  return Array.from({ length: FIRST_PAGES }, (_, i) => (3 * i + round) * step);
}

type FirstPages = Record<'warming' | 'ready' | 'kept', { legacy: number; v1: number }>;

/** Polls `/readyz` as a load balancer does (every 100 ms) until it answers 200. */
async function untilReady(base: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${base}/readyz`).catch(() => null);
    if (res?.status === 200) return;
    await res?.arrayBuffer();
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function firstPagesAtOnce(base: string, rows: number, round: 0 | 1 | 2, label: string) {
  const offsets = firstPageOffsets(rows, round);
  const legacy = await askAtOnce(
    base,
    offsets.map((o) => `/api/bv_specifications?limit=100&offset=${o}`),
  );
  const v1 = await askAtOnce(
    base,
    offsets.map((o) => `/api/v1/datasets?limit=100&offset=${o}`),
  );
  const cell = (r: { times: number[]; failed: number }) =>
    `${p99(r.times).toFixed(0)}${r.failed ? ` (${r.failed} not 200)` : ''}`;
  console.log(`| ${label} | ${cell(legacy)} | ${cell(v1)} | ${uptime()} |`);
  return { legacy: p99(legacy.times), v1: p99(v1.times) };
}

async function benchFactor(factor: number, seconds: number) {
  // The embedded database as the server opens it, in a thread of its own (decision 085, 113);
  // BENCH_API_PGLITE_IN_PROCESS=1: in this process, as the bench opened it before.
  const database = await openBenchDatabase(`api_${factor}`, {
    thread: process.env.BENCH_API_PGLITE_IN_PROCESS !== '1',
  });
  await seedDatabase(database.db, {
    demo: true,
    adminEmail: 'bench@example.org',
    adminPassword: 'bench-password-1',
  });
  const t0 = performance.now();
  if (factor > 1) await multiply(database, factor);
  const ids = (await database.db.select({ id: bvSpecifications.id }).from(bvSpecifications)).map((r) => r.id);
  const app = await buildApp({
    config: loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000000',
      // The server's default unless the environment sets it (how long /readyz waits for the warm-up).
      ...(process.env.WARM_UP_READY_SECONDS
        ? { WARM_UP_READY_SECONDS: process.env.WARM_UP_READY_SECONDS }
        : {}),
    }),
    database,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  console.log(
    `\n### ${factor}× demo size on ${database.kind}: ${ids.length} datasets (built in ${(performance.now() - t0).toFixed(0)} ms); ${uptime()}`,
  );
  console.log(
    `| ${FIRST_PAGES} distinct first-time pages of 100 at once | legacy p99 ms | v1 p99 ms | uptime |`,
  );
  console.log('|---|---|---|---|');
  // As main.ts does after listening: the warm-up, /readyz 503 until it is over.
  const tWarm = performance.now();
  const warm = warmUpBeforeReady(app, app.deps.config.WARM_UP_READY_SECONDS);
  const warming = await firstPagesAtOnce(base, ids.length, 0, 'while warming up (not ready yet; not held)');
  await untilReady(base);
  const warmed = await warm;
  console.log(
    `(/readyz said ready ${((performance.now() - tWarm) / 1000).toFixed(1)} s after the start: ${warmed.rows} rows kept${warmed.complete ? '' : ', the warm-up cut short by WARM_UP_READY_SECONDS'})`,
  );
  const ready = await firstPagesAtOnce(base, ids.length, 1, 'as soon as /readyz says ready');
  const tFill = performance.now();
  // The fill itself, not the loop's quiet: on a loaded machine a resting fill looks idle.
  await app.publicDatasets.settled();
  await fragmentChains.idle();
  await preparedRecordsIdle();
  await upgrades.idle();
  const fillSeconds = (performance.now() - tFill) / 1000;
  // Three rounds from kept rows, the median of their p99s (one round on a loaded machine is a
  // lottery). Between rounds the kept answers go (a change of meta-analysis results, which the pages
  // read and the kept rows do not), so the same pages are first-time answers again.
  const rounds: { legacy: number; v1: number }[] = [];
  for (let k = 1; k <= KEPT_ROUNDS; k++) {
    if (k > 1) app.deps.cache.invalidate(['metas']);
    rounds.push(await firstPagesAtOnce(base, ids.length, 2, `after the fill (rows kept), round ${k}`));
    await upgrades.idle();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const kept = { legacy: median(rounds.map((r) => r.legacy)), v1: median(rounds.map((r) => r.v1)) };
  console.log(
    `(the fill and the compressions' upgrades were over ${fillSeconds.toFixed(1)} s after the ready round; ${app.publicDatasets.keptRows} rows kept)`,
  );
  const firstPages: FirstPages = { warming, ready, kept };
  if (process.env.BENCH_API_PASSES === '0') {
    await app.close();
    await database.close();
    return { perSearch: NaN, firstPages, firstPass: [] as { label: string; p99: number }[] };
  }
  if (process.env.BENCH_API_WARM === '1') {
    // An anonymous read starts the fill; the loop goes idle when it is over.
    await app.inject({ url: '/api/v1/datasets?limit=1&offset=0' });
    const t = performance.now();
    await untilIdle();
    console.log(
      `\nKept rows filled in ${((performance.now() - t) / 1000).toFixed(1)} s before the first pass`,
    );
  }
  console.log(
    '| whole catalogue | first byte ms (alone) | complete ms (alone) | MB (gzip) | req/s at 10 connections | first byte ms, slowest of 10 at once | live heap growth MB, 10 at once |',
  );
  console.log('|---|---|---|---|---|---|---|');
  // BENCH_API_WHOLE=0 leaves the whole-catalogue answers out (the paged reads and search alone).
  for (const path of process.env.BENCH_API_WHOLE === '0'
    ? []
    : ['/api/bv_specifications', '/api/v1/bulk/datasets']) {
    await timeOne(base + path); // warm-up
    const alone = await timeOne(base + path);
    // Live heap, not garbage: a full collection before each sample (run with --expose-gc).
    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    let peak = heap0;
    const sampler = setInterval(() => {
      global.gc?.();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 250);
    const t = performance.now();
    const ten = await Promise.all(Array.from({ length: 10 }, () => timeOne(base + path)));
    const elapsed = (performance.now() - t) / 1000;
    clearInterval(sampler);
    const slowestFirst = Math.max(...ten.map((x) => x.ttfb));
    console.log(
      `| ${path} | ${alone.ttfb.toFixed(0)} | ${alone.total.toFixed(0)} | ${(alone.bytes / 1e6).toFixed(1)} | ${(10 / elapsed).toFixed(1)} | ${slowestFirst.toFixed(0)} | ${((peak - heap0) / 1e6).toFixed(0)} |`,
    );
  }
  const pages = Math.max(1, Math.ceil(ids.length / 100));
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  const targets: [string, string[]][] = [
    [
      'legacy paged `?limit=100&offset=random`',
      range(pages).map((p) => `/api/bv_specifications?limit=100&offset=${100 * p}`),
    ],
    [
      'legacy paged `?limit=20&offset=random`',
      range(pages * 5).map((p) => `/api/bv_specifications?limit=20&offset=${20 * p}`),
    ],
    [
      'v1 paged `/api/v1/datasets?limit=100&offset=random`',
      range(pages).map((p) => `/api/v1/datasets?limit=100&offset=${100 * p}`),
    ],
    ['legacy one `/api/bv_specifications/{random id}`', ids.map((id) => `/api/bv_specifications/${id}`)],
    ['v1 one `/api/v1/datasets/{random id}`', ids.map((id) => `/api/v1/datasets/${id}`)],
  ];
  // First on a server that has answered none of these (every page built, every record read from its
  // kept row), then again (pages and records kept, as on a server in use). The first pass is run
  // BENCH_FIRST_PASS_ROUNDS times, each a first pass again (what the answers read changes in
  // between, as the kept first pages' rounds do), and judged on the median of its p99s (decision
  // 110): at 1× that p99 is ~6 ms, counted in whole ms, and one slice of 5–10 ms the 2-core machine
  // gives another thread decides a single round.
  const firstPass: { label: string; p99: number }[] = [];
  const firstRounds = Number(process.env.BENCH_FIRST_PASS_ROUNDS ?? 3);
  const passes = [
    ...Array.from(
      { length: firstRounds },
      (_, k) => `first pass${firstRounds > 1 ? `, round ${k + 1}` : ''}`,
    ),
    'second pass',
  ];
  const firstPassP99s: number[][] = targets.map(() => []);
  for (const [passIndex, pass] of passes.entries()) {
    const first = passIndex < firstRounds;
    if (first && passIndex > 0) {
      app.deps.cache.invalidate(['metas']);
      await upgrades.idle();
      await compaction.idle();
    }
    console.log(`| read, ${pass} (50 connections, client in its own thread) | req/s | p50 ms | p99 ms |`);
    console.log('|---|---|---|---|');
    // BENCH_API_PROFILE=<file>: a CPU profile of the first round, <file>-<factor>x.cpuprofile.
    const profile =
      passIndex === 0 && process.env.BENCH_API_PROFILE
        ? await startCpuProfile(`${process.env.BENCH_API_PROFILE}-${factor}x.cpuprofile`, 40)
        : null;
    for (const [i, [label, paths]] of targets.entries()) {
      // Each read from a quiet server: the background work the read before left (the kept copies of
      // the pages it asked again, its records' copies) is over before this one starts (decision 113).
      await upgrades.idle();
      await compaction.idle();
      const r = await load(base, paths, seconds);
      if (first) firstPassP99s[i]!.push(r.p99);
      console.log(`| ${label} | ${r.rps} | ${r.p50} | ${r.p99} |${r.non2xx ? ` (${r.non2xx} non-2xx)` : ''}`);
    }
    if (profile) console.log(`\n\`\`\`\n${await profile()}\n\`\`\`\n`);
    if (first && passIndex === firstRounds - 1) {
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      targets.forEach(([label], i) => firstPass.push({ label, p99: median(firstPassP99s[i]!) }));
    }
  }
  // Search by name through the service, nothing kept (the route keeps each query's answer): the
  // cost of one search at this size, the median of five rounds over the same queries.
  const search = new AnalyteSearch(serviceDeps(app));
  await search.findByName('warm-up', false);
  const perRound: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    for (const q of SEARCHES) await search.findByName(q, false);
    perRound.push((performance.now() - t) / SEARCHES.length);
  }
  const perSearch = perRound.sort((a, b) => a - b)[2]!;
  console.log(`\nSearch by name (service, nothing kept): ${perSearch.toFixed(2)} ms a search; ${uptime()}`);
  await app.close();
  await database.close();
  return { perSearch, firstPages, firstPass };
}

const SEARCHES = ['cre', 'glucose', 'alt', 'urine', 'hb', 'cholesterol', 'sodium', 'tsh', 'iron', 'crp'];

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const factors = (process.env.BENCH_API_FACTORS ?? '1,100').split(',').map(Number);
const searchCost: number[] = [];
const firstPages: FirstPages[] = [];
const firstPasses: { label: string; p99: number }[][] = [];
for (const factor of factors) {
  const r = await benchFactor(factor, seconds);
  searchCost.push(r.perSearch);
  firstPages.push(r.firstPages);
  firstPasses.push(r.firstPass);
}
// Issue 44.3 (decisions 089, 110): the cold first pass at the last factor keeps pace with the first
// factor's: its median p99 over the rounds within BENCH_FIRST_PASS_RATIO_CEILING times it and
// under BENCH_FIRST_PASS_CEILING_MS.
if (firstPasses.length > 1 && firstPasses[0]!.length > 0) {
  const ratioCeiling = Number(process.env.BENCH_FIRST_PASS_RATIO_CEILING ?? 3);
  const msCeiling = Number(process.env.BENCH_FIRST_PASS_CEILING_MS ?? 200);
  const [low, high] = [firstPasses[0]!, firstPasses.at(-1)!];
  console.log(
    `\n| first pass, median p99 of its rounds at ${factors.at(-1)}× / at ${factors[0]}× (ceiling ${ratioCeiling}×, ${msCeiling} ms) | ${factors[0]}× ms | ${factors.at(-1)}× ms | ratio |`,
  );
  console.log('|---|---|---|---|');
  high.forEach(({ label, p99: ms }, i) => {
    const base = Math.max(1, low[i]!.p99);
    const ratio = ms / base;
    const over = ratio > ratioCeiling || ms > msCeiling;
    console.log(`| ${label} | ${low[i]!.p99} | ${ms} | ${ratio.toFixed(2)}${over ? ' **over**' : ''} |`);
    if (over) process.exitCode = 1;
  });
}
if (firstPages.length > 1) {
  const ceiling = Number(process.env.BENCH_FIRST_PAGES_RATIO_CEILING ?? 3);
  const [low, high] = [firstPages[0]!, firstPages.at(-1)!];
  const ratio = (kind: keyof FirstPages, route: 'legacy' | 'v1') =>
    high[kind][route] / Math.max(1, low[kind][route]);
  const labels: Record<keyof FirstPages, string> = {
    warming: 'while warming up (not held)',
    ready: 'as soon as /readyz says ready',
    kept: 'rows kept (after the fill)',
  };
  console.log(`\n| first-time pages at once, p99 at ${factors.at(-1)}× / at ${factors[0]}× | legacy | v1 |`);
  console.log('|---|---|---|');
  for (const kind of ['warming', 'ready', 'kept'] as const)
    console.log(
      `| ${labels[kind]} | ${ratio(kind, 'legacy').toFixed(2)} | ${ratio(kind, 'v1').toFixed(2)} |`,
    );
  for (const kind of ['ready', 'kept'] as const) {
    const worst = Math.max(ratio(kind, 'legacy'), ratio(kind, 'v1'));
    if (worst > ceiling) {
      console.log(
        `First-time pages at once, ${labels[kind]}: p99 ${worst.toFixed(2)}× the ${factors[0]}× figure, above BENCH_FIRST_PAGES_RATIO_CEILING (${ceiling})`,
      );
      process.exitCode = 1;
    }
  }
}
if (searchCost.length > 1 && process.env.BENCH_API_PASSES !== '0') {
  console.log(
    `Search cost at ${factors.at(-1)}× / at ${factors[0]}×: ${(searchCost.at(-1)! / searchCost[0]!).toFixed(2)} (issue 26 asks ≤ 1.5; search.bench holds the ceiling, decision 053)`,
  );
}
