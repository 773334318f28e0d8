// Issue 26, point 4 (decision 065): what one first-time public page of 100 costs the event loop, in
// one process and one request at a time, so the figure depends little on what else the machine
// runs. On BENCH_PAGE_FACTOR× the demo data (default 100); PostgreSQL when DATABASE_URL is set.
// Two cases: rows read from the database when asked (the background fill off), and rows kept (after
// the background fill, what a server in use has). Each page is asked once (a first-time answer,
// built, compressed as br and kept), through `inject`: the fast read path is not involved.
// Fails when a first-time page of 100 from kept rows costs the event loop more than
// BENCH_FIRST_PAGE_CEILING_MS (default 10; 43 ms before decision 065 on a loaded machine).
import { execSync } from 'node:child_process';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { seedDatabase } from '../seed/seed.js';
import { multiply, openBenchDatabase, untilIdle } from './bench-data.js';

const factor = Number(process.env.BENCH_PAGE_FACTOR ?? 100);
const perKind = Number(process.env.BENCH_PAGE_COUNT ?? 20);
const ceiling = Number(process.env.BENCH_FIRST_PAGE_CEILING_MS ?? 10);

const uptime = () => execSync('uptime', { encoding: 'utf8' }).trim();

async function app(database: Database, prefill: boolean): Promise<FastifyInstance> {
  const built = await buildApp({
    config: loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000000',
      READ_CACHE_PREFILL: String(prefill),
    }),
    database,
  });
  await built.ready();
  return built;
}

/** Event-loop ms (and wall ms) of each page, asked one after the other. */
async function measure(server: FastifyInstance, urls: string[]) {
  const loop: number[] = [];
  const wall: number[] = [];
  for (const url of urls) {
    const t = performance.now();
    const before: EventLoopUtilization = performance.eventLoopUtilization();
    const res = await server.inject({
      url,
      headers: { 'accept-encoding': 'br, gzip', accept: 'application/json' },
    });
    const used = performance.eventLoopUtilization(before);
    if (res.statusCode !== 200 || res.headers['content-encoding'] !== 'br')
      throw new Error(`${url}: ${res.statusCode} ${String(res.headers['content-encoding'])}`);
    loop.push(used.active);
    wall.push(performance.now() - t);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { loop: median(loop), wall: median(wall) };
}

const database = await openBenchDatabase(`page_${factor}`);
await seedDatabase(database.db, {
  demo: true,
  adminEmail: 'b@example.org',
  adminPassword: 'bench-password-1',
});
if (factor > 1) await multiply(database, factor);
console.log(`${factor}× the demo on ${database.kind}; ${uptime()}`);
console.log('| first-time page of 100 | rows | event loop ms (median) | wall ms (median) |');
console.log('|---|---|---|---|');
const pages = (from: number, to: number, path: string) =>
  Array.from({ length: to - from }, (_, k) => `${path}?limit=100&offset=${100 * (from + k)}`);
const kinds: [string, number][] = [
  ['/api/bv_specifications', 0],
  ['/api/v1/datasets', perKind],
];
const cold = await app(database, false);
for (const [path, from] of kinds) {
  await cold.inject({ url: `${path}?limit=1&offset=0` }); // the index and the route, once
  const r = await measure(cold, pages(from + 1, from + 1 + perKind, path));
  console.log(`| ${path} | read when asked | ${r.loop.toFixed(1)} | ${r.wall.toFixed(1)} |`);
}
await cold.close();
const warm = await app(database, true);
await warm.inject({ url: '/api/v1/datasets?limit=1&offset=0' }); // starts the background fill
const t = performance.now();
await untilIdle();
global.gc?.();
const { heapUsed, rss } = process.memoryUsage();
const filled = `fill ${((performance.now() - t) / 1000).toFixed(1)} s, heap ${(heapUsed / 1e6).toFixed(0)} MB, rss ${(rss / 1e6).toFixed(0)} MB`;
let over = false;
for (const [path, from] of kinds) {
  const r = await measure(warm, pages(from + 1, from + 1 + perKind, path));
  console.log(`| ${path} | kept (${filled}) | ${r.loop.toFixed(1)} | ${r.wall.toFixed(1)} |`);
  over ||= r.loop > ceiling;
}
await warm.close();
await database.close();
console.log(uptime());
if (over) {
  console.log(`A first-time page of 100 from kept rows cost the event loop more than ${ceiling} ms`);
  process.exitCode = 1;
}
