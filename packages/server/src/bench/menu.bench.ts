// Issue 32, points 2–3 (decision 059): what one 200-test menu costs through `POST /api/v1/menu` on
// the demo database and on `factor`× its size (BENCH_MENU_FACTORS, default "1,100"); PostgreSQL when
// DATABASE_URL is set. The menu names 200 measurand × matrix rows of `/api/v1/applications`, every
// 20th misspelt (unmatched: the search's nearest names are offered) and every 25th by the
// alternative name "ALT" (ambiguous at 100×: a hundred copies carry it). Printed: the first menu after
// a write (the catalogue read again), the median of BENCH_MENU_ROUNDS menus with the catalogue kept,
// and the sheet as xlsx. Nothing is held to a ceiling: the figures are for decision 059.
import { execSync } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { analytes } from '../db/schema.js';
import { recomputeAnalyteMetas } from '../modules/meta-analysis/recompute/meta-recompute.service.js';
import { seedDatabase } from '../seed/seed.js';
import { multiply, openBenchDatabase } from './bench-data.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function uptime(): string {
  try {
    return execSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`;
  }
}

async function post(base: string, body: unknown, query = ''): Promise<{ ms: number; json: unknown }> {
  const t = performance.now();
  const res = await fetch(`${base}/api/v1/menu${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = await res.arrayBuffer();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`menu: ${res.status} ${Buffer.from(bytes).toString()}`);
  return { ms, json: query ? null : JSON.parse(Buffer.from(bytes).toString()) };
}

async function benchFactor(factor: number, rounds: number): Promise<void> {
  const database = await openBenchDatabase(`menu_${factor}`);
  await seedDatabase(database.db, {
    demo: true,
    adminEmail: 'bench@example.org',
    adminPassword: 'bench-password-1',
  });
  if (factor > 1) {
    await multiply(database, factor);
    // The copies get their estimates as the recompute would give them: a menu is judged against
    // factor× the estimates, not only the demo's.
    const ids = await database.db.select({ id: analytes.id }).from(analytes);
    for (const { id } of ids) await database.db.transaction((tx) => recomputeAnalyteMetas(tx, id));
  }
  const app = await buildApp({
    config: loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000000',
      RATE_LIMIT_HEAVY_PER_MINUTE: '100000000',
      READ_CACHE_PREFILL: 'false',
    }),
    database,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const rows = (
    (await (await fetch(`${base}/api/v1/applications?matrices=all`)).json()) as {
      data: { display_name: string; matrix: string }[];
    }
  ).data;
  const tests = Array.from({ length: 200 }, (_, i) => {
    const r = rows[i % rows.length]!;
    const name = i % 20 === 19 ? `${r.display_name.slice(0, -2)}zz` : i % 25 === 24 ? 'ALT' : r.display_name;
    return {
      name,
      matrix: i % 20 === 19 || i % 25 === 24 ? undefined : r.matrix,
      cva: 1 + (i % 7),
      bias: (i % 5) - 2,
    };
  });
  const body = { tests, level: 'desirable', probability: 0.95 };
  await post(base, { tests: [{ name: 'warm-up' }] });
  await post(base, { tests: [{ name: 'warm-up' }] }, '?format=xlsx');

  app.deps.cache.invalidate();
  const cold = await post(base, body);
  const summary = (cold.json as { summary: Record<string, number> }).summary;
  const warm: number[] = [];
  for (let i = 0; i < rounds; i++) warm.push((await post(base, body)).ms);
  const xlsx: number[] = [];
  for (let i = 0; i < rounds; i++) xlsx.push((await post(base, body, '?format=xlsx')).ms);
  console.log(
    `| ${factor}× on ${database.kind} (${rows.length} rows) | ${summary.matched}/${summary.unmatched}/${summary.ambiguous} | ${cold.ms.toFixed(0)} | ${median(warm).toFixed(0)} | ${median(xlsx).toFixed(0)} | ${uptime()} |`,
  );
  await app.close();
  await database.close();
}

const rounds = Math.max(1, Number(process.env.BENCH_MENU_ROUNDS ?? 5));
const factors = (process.env.BENCH_MENU_FACTORS ?? '1,100').split(',').map(Number);
console.log(
  '| data | matched / unmatched / ambiguous of 200 | ms, first menu after a write | ms, menu (catalogue kept; median) | ms, sheet as xlsx (median) | uptime |',
);
console.log('|---|---|---|---|---|---|');
for (const factor of factors) await benchFactor(factor, rounds);
