// Issue 26, point 3 (decision 053): what one search by name costs on the demo database and on
// `factor`× its size (BENCH_SEARCH_FACTORS, default "1,100"); PostgreSQL when DATABASE_URL is set.
//   - through the service, nothing kept per query (the index and the published counts kept, as
//     between two writes): each query's fastest of BENCH_SEARCH_ROUNDS rounds, averaged;
//   - through HTTP (`/api/search/by_analyte` and `/autocomplete`), each query asked for the first
//     time (three spellings of each, its fastest) (the route keeps each answer; a kept one is a replay, measured by cached-reads.bench);
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

async function benchFactor(factor: number, rounds: number): Promise<Costs> {
  const database = await openBenchDatabase(`search_${factor}`);
  await seedDatabase(database.db, {
    demo: true,
    adminEmail: 'bench@example.org',
    adminPassword: 'bench-password-1',
  });
  if (factor > 1) await multiply(database, factor);
  const { app, base } = await listenBenchApp(database);

  // The service, as between two writes: nothing kept per query. Each query's cost is its fastest
  // round: on a shared machine a search of a millisecond is often descheduled for tens of
  // milliseconds, which is the machine's cost, not the search's (the median of the rounds is
  // printed beside it).
  const search = new AnalyteSearch(serviceDeps(app));
  await search.findByNameJson('warm-up', false);
  const serviceTimes = SEARCHES.map(() => [] as number[]);
  for (let i = 0; i < rounds; i++)
    for (const [k, q] of SEARCHES.entries()) {
      const t = performance.now();
      // What the route runs for an anonymous caller (decision 071: each measurand's JSON kept).
      await search.findByNameJson(q, false);
      serviceTimes[k]!.push(performance.now() - t);
    }
  const service = mean(serviceTimes.map(fastest));
  const serviceMedian = mean(serviceTimes.map(median));

  // HTTP, every query asked for the first time: the route keeps answers per query, so each round
  // asks another spelling ("cre", "Cre", "CRE": the same work, three first asks).
  await get(`${base}/api/search/by_analyte?query=warm`);
  const spellings = [
    (q: string) => q,
    (q: string) => q[0]!.toUpperCase() + q.slice(1),
    (q: string) => q.toUpperCase(),
  ];
  const httpTimes = SEARCHES.map(() => [] as number[]);
  for (const spell of spellings)
    for (const [k, q] of SEARCHES.entries()) {
      const asked = encodeURIComponent(spell(q));
      httpTimes[k]!.push(
        ((await get(`${base}/api/search/by_analyte?query=${asked}`)) +
          (await get(`${base}/autocomplete?query=${asked}`))) /
          2,
      );
    }
  const httpCost = mean(httpTimes.map(fastest));

  // The first search after a write, through the service and through HTTP (the write drops the
  // route's kept answers): a measurand given another alternative name (the index follows it), and a
  // published dataset unpublished and published again (the counts follow it). Before decision 066
  // each read the whole index or every count again.
  const { renameMeasurand, publishDataset } = await benchWrites(app);
  const afterWrites: number[] = [];
  const afterWritesHttp: number[] = [];
  const afterDatasetWrites: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await renameMeasurand(2 * i);
    let t = performance.now();
    await search.findByNameJson('cre', false);
    afterWrites.push(performance.now() - t);
    await renameMeasurand(2 * i + 1);
    afterWritesHttp.push(await get(`${base}/api/search/by_analyte?query=cre`));
    await publishDataset(i % 2 === 1);
    t = performance.now();
    await search.findByNameJson('cre', false);
    afterDatasetWrites.push(performance.now() - t);
  }
  if (rounds % 2 === 1) await publishDataset(true);
  const afterWrite = median(afterWrites);

  console.log(
    `| ${factor}× on ${database.kind} | ${service.toFixed(3)} (median ${serviceMedian.toFixed(3)}) | ${httpCost.toFixed(2)} | ${afterWrite.toFixed(1)} / ${median(afterWritesHttp).toFixed(1)} | ${median(afterDatasetWrites).toFixed(1)} | ${uptime()} |`,
  );
  await app.close();
  await database.close();
  return { service, http: httpCost, afterWrite };
}

const rounds = Math.max(1, Number(process.env.BENCH_SEARCH_ROUNDS ?? 5));
const ceiling = Number(process.env.BENCH_SEARCH_CEILING ?? 1.5);
const factors = (process.env.BENCH_SEARCH_FACTORS ?? '1,100').split(',').map(Number);
console.log(
  `${SEARCHES.length} queries: ${SEARCHES.join(', ')}; each query's fastest of ${rounds} rounds (service) or 3 spellings (HTTP), averaged over the queries`,
);
console.log(
  '| data | ms a search, service (nothing kept per query; median of rounds) | ms a search, HTTP first ask (by_analyte and autocomplete) | ms, first search after a measurand write: service / HTTP (median) | ms, first search after a dataset write: service (median) | uptime |',
);
console.log('|---|---|---|---|---|---|');
const costs: Costs[] = [];
for (const factor of factors) costs.push(await benchFactor(factor, rounds));
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
