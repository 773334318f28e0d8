// Issue 26, point 3 (decision 053): what one search by name costs on the demo database and on
// `factor`× its size (BENCH_SEARCH_FACTORS, default "1,100"); PostgreSQL when DATABASE_URL is set.
//   - through the service, nothing kept per query (the index and the published counts kept, as
//     between two writes): each query's fastest of BENCH_SEARCH_ROUNDS rounds, averaged;
//   - through HTTP (`/api/search/by_analyte` and `/autocomplete`), each query asked for the first
//     time (BENCH_SEARCH_SPELLINGS spellings of each, default 5, its fastest; the sizes asked in
//     turn, after the same warm-up of other queries: decision 076) (the route keeps each answer; a
//     kept one is a replay, measured by cached-reads.bench);
//   - the first search after a real write (decision 066): a measurand's alternative names changed
//     (service and HTTP), a published dataset unpublished or published again (service).
// Exits 1 (the bench fails, not the tests) when a search through HTTP at the largest size costs
// more than BENCH_SEARCH_CEILING (default 1.5) times what it costs at the smallest, in the same run.
// The service's own figure is printed beside it, not held to the ceiling: on the bench's data a
// query finds a hundred copies of each name, so it answers 50 measurands at 100× where it answers
// 1 to 6 at 1×, and presenting them is most of the service's time (decision 053).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { serviceDeps } from '../lib/service-deps.js';
import { AnalyteSearch } from '../modules/search/search.service.js';
import { seedDatabase } from '../seed/seed.js';
import { benchWrites, listenBenchApp, uptime } from './bench-app.js';
import { multiply, openBenchDatabase } from './bench-data.js';

/** Typed prefixes, whole names, words, codes, a substring and a typo: what the search box sees. */
const SEARCHES = [
  'cre',
  'glucose',
  'alt',
  'urine',
  'hb',
  'cholesterol',
  'sodium',
  'tsh',
  'iron',
  'crp',
  'ch',
  'serum',
  'atinine',
  'glucsoe',
];

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    http
      .get(url, { headers: { accept: 'application/json', 'accept-encoding': 'br, gzip' } }, (res) => {
        res.resume();
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - t)
            : reject(new Error(`${url}: ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fastest = (xs: number[]) => Math.min(...xs);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

interface Costs {
  service: number;
  http: number;
  afterWrite: number;
}

interface Setup {
  factor: number;
  kind: string;
  app: Awaited<ReturnType<typeof listenBenchApp>>['app'];
  base: string;
  close: () => Promise<void>;
}

async function setUp(factor: number): Promise<Setup> {
  const database = await openBenchDatabase(`search_${factor}`);
  await seedDatabase(database.db, {
    demo: true,
    adminEmail: 'bench@example.org',
    adminPassword: 'bench-password-1',
  });
  if (factor > 1) await multiply(database, factor);
  const { app, base } = await listenBenchApp(database);
  return {
    factor,
    kind: database.kind,
    app,
    base,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/**
 * The service, as between two writes: nothing kept per query. Each query's cost is its fastest
 * round: on a shared machine a search of a millisecond is often descheduled for tens of
 * milliseconds, which is the machine's cost, not the search's (the median of the rounds is
 * printed beside it).
 */
async function benchService(setup: Setup, rounds: number): Promise<{ fastest: number[]; median: number }> {
  const search = new AnalyteSearch(serviceDeps(setup.app));
  await search.findByNameJson('warm-up', false);
  const times = SEARCHES.map(() => [] as number[]);
  for (let i = 0; i < rounds; i++)
    for (const [k, q] of SEARCHES.entries()) {
      const t = performance.now();
      // What the route runs for an anonymous caller (decision 071: each measurand's JSON kept).
      await search.findByNameJson(q, false);
      times[k]!.push(performance.now() - t);
    }
  return { fastest: times.map(fastest), median: mean(times.map(median)) };
}

/** The same letters in another case: `i`'s bits say which letters are upper case. */
const spelling = (q: string, i: number) =>
  [...q].map((c, k) => ((i >> k) & 1 ? c.toUpperCase() : c)).join('');

/** Words the measured queries do not use: the route's code warmed by first asks, as on a server that has been up a while. */
const WARM_UPS = ['alb', 'ferritin', 'protein', 'kinase', 'vitamin', 'calcium', 'lipase', 'ammonia'];

/**
 * HTTP, every query asked for the first time at each size in turn (decision 076): the route keeps
 * answers per query, so each round asks another spelling ("cre", "Cre", "cRe"…: the same work, a
 * first ask each). The sizes are asked alternately, so a moment when the shared machine is busy
 * falls on both and the ratio, not either figure, is what it shows. Before, the sizes were
 * measured one after the other, and a busy minute on one side moved the ratio by half.
 */
async function benchHttp(setups: Setup[], spellings: number): Promise<number[][]> {
  const ask = async (base: string, q: string) =>
    ((await get(`${base}/api/search/by_analyte?query=${encodeURIComponent(q)}`)) +
      (await get(`${base}/autocomplete?query=${encodeURIComponent(q)}`))) /
    2;
  for (const setup of setups)
    for (let i = 0; i < 8; i++) for (const w of WARM_UPS) await ask(setup.base, spelling(w, i));
  const times = setups.map(() => SEARCHES.map(() => [] as number[]));
  for (let i = 0; i < spellings; i++)
    for (const [k, q] of SEARCHES.entries()) {
      // A short query has fewer spellings than asked ("hb": four): only first asks are measured.
      if (i >= 2 ** q.length) continue;
      // Which size goes first alternates too.
      const order = i % 2 === 0 ? setups.map((_, n) => n) : setups.map((_, n) => setups.length - 1 - n);
      for (const n of order) times[n]![k]!.push(await ask(setups[n]!.base, spelling(q, i)));
    }
  return times.map((perQuery) => perQuery.map(fastest));
}

/**
 * The first search after a write, through the service and through HTTP (the write drops the
 * route's kept answers): a measurand given another alternative name (the index follows it), and a
 * published dataset unpublished and published again (the counts follow it). Before decision 066
 * each read the whole index or every count again.
 */
async function benchAfterWrites(setup: Setup, rounds: number) {
  const search = new AnalyteSearch(serviceDeps(setup.app));
  await search.findByNameJson('warm-up', false);
  const { renameMeasurand, publishDataset } = await benchWrites(setup.app);
  const service: number[] = [];
  const http: number[] = [];
  const dataset: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await renameMeasurand(2 * i);
    let t = performance.now();
    await search.findByNameJson('cre', false);
    service.push(performance.now() - t);
    await renameMeasurand(2 * i + 1);
    http.push(await get(`${setup.base}/api/search/by_analyte?query=cre`));
    await publishDataset(i % 2 === 1);
    t = performance.now();
    await search.findByNameJson('cre', false);
    dataset.push(performance.now() - t);
  }
  if (rounds % 2 === 1) await publishDataset(true);
  return { service: median(service), http: median(http), dataset: median(dataset) };
}

const rounds = Math.max(1, Number(process.env.BENCH_SEARCH_ROUNDS ?? 5));
const spellings = Math.max(1, Number(process.env.BENCH_SEARCH_SPELLINGS ?? 5));
const ceiling = Number(process.env.BENCH_SEARCH_CEILING ?? 1.5);
const factors = (process.env.BENCH_SEARCH_FACTORS ?? '1,100').split(',').map(Number);
console.log(
  `${SEARCHES.length} queries: ${SEARCHES.join(', ')}; each query's fastest of ${rounds} rounds (service) or ${spellings} spellings (HTTP, the sizes asked in turn), averaged over the queries`,
);
const setups: Setup[] = [];
for (const factor of factors) setups.push(await setUp(factor));
const services: Awaited<ReturnType<typeof benchService>>[] = [];
for (const setup of setups) services.push(await benchService(setup, rounds));
const https = await benchHttp(setups, spellings);
const costs: Costs[] = [];
console.log(
  '| data | ms a search, service (nothing kept per query; median of rounds) | ms a search, HTTP first ask (by_analyte and autocomplete) | ms, first search after a measurand write: service / HTTP (median) | ms, first search after a dataset write: service (median) | uptime |',
);
console.log('|---|---|---|---|---|---|');
for (const [n, setup] of setups.entries()) {
  const after = await benchAfterWrites(setup, rounds);
  const service = mean(services[n]!.fastest);
  const http = mean(https[n]!);
  console.log(
    `| ${setup.factor}× on ${setup.kind} | ${service.toFixed(3)} (median ${services[n]!.median.toFixed(3)}) | ${http.toFixed(2)} | ${after.service.toFixed(1)} / ${after.http.toFixed(1)} | ${after.dataset.toFixed(1)} | ${uptime()} |`,
  );
  costs.push({ service, http, afterWrite: after.service });
}
console.log(`\nPer query, ms (HTTP first ask / service), ${factors.map((f) => `${f}×`).join(' | ')}:`);
for (const [k, q] of SEARCHES.entries())
  console.log(
    `  ${q}: ${setups.map((_, n) => `${https[n]![k]!.toFixed(2)} / ${services[n]!.fastest[k]!.toFixed(3)}`).join(' | ')}`,
  );
for (const setup of setups) await setup.close();
if (costs.length > 1) {
  const first = costs[0]!;
  const last = costs.at(-1)!;
  const serviceRatio = last.service / first.service;
  const httpRatio = last.http / first.http;
  console.log(
    `Search cost at ${factors.at(-1)}× / at ${factors[0]}×: service ${serviceRatio.toFixed(2)}, HTTP first ask ${httpRatio.toFixed(2)}, first after a write ${(last.afterWrite / first.afterWrite).toFixed(2)} (ceiling ${ceiling} on the HTTP first ask)`,
  );
  if (httpRatio > ceiling) {
    console.log('FAIL: a search at the largest size costs more than the ceiling allows');
    process.exitCode = 1;
  }
}
