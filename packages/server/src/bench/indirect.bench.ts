// Issue 46 (decision 095): an indirect estimate of 100,000 routine results over HTTP, on the built
// server, with `/healthz` asked every 20 ms from a process of its own meanwhile.
//   1. BENCH_INDIRECT_RESULTS (100,000) results of a seeded extract (modules/indirect/extract-fixture.ts),
//      every method, a CVA, the default 500 bootstrap resamples: the time to the answer, BENCH_INDIRECT_RUNS
//      times (3), median and worst;
//   2. the `/healthz` answers meanwhile: how many, the longest, and any that failed.
// Exits 1 when the median is over BENCH_INDIRECT_CEILING_MS (10,000) or a `/healthz` failed or none
// was answered during a run. The server listens on BENCH_INDIRECT_PORT (4161).
import { spawn } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { FIXTURE_HEADER, fixtureRows } from '../modules/indirect/extract-fixture.js';
import { seedDatabase } from '../seed/seed.js';

const results = Number(process.env.BENCH_INDIRECT_RESULTS ?? 100_000);
const runs = Math.max(1, Number(process.env.BENCH_INDIRECT_RUNS ?? 3));
const ceiling = Number(process.env.BENCH_INDIRECT_CEILING_MS ?? 10_000);
const port = Number(process.env.BENCH_INDIRECT_PORT ?? 4161);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

const rows = fixtureRows({ patients: Math.ceil(results / 2.4), seed: 46, maxResults: 4 }).slice(0, results);
if (rows.length < results) throw new Error(`the fixture gave ${rows.length} rows, fewer than ${results}`);
const csv = [FIXTURE_HEADER, ...rows].map((r) => r.join(',')).join('\n') + '\n';

const database = await openDatabase({ dataDir: 'memory://' });
await seedDatabase(database.db, {
  demo: true,
  adminEmail: 'bench@example.org',
  adminPassword: 'bench-password-1',
});
const app = await buildApp({
  config: loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_HEAVY_PER_MINUTE: '100000000',
  }),
  database,
});
await app.listen({ port, host: '127.0.0.1' });
const base = `http://127.0.0.1:${port}`;

/** A process of its own asking /healthz every 20 ms until its stdin closes; it prints what it saw. */
const PROBE = `
let stop = false, probes = 0, failed = 0, longest = 0;
process.stdin.on('end', () => { stop = true; }); process.stdin.resume();
(async () => {
  while (!stop) {
    const t = performance.now();
    try { const r = await fetch(process.argv[1] + '/healthz'); await r.text(); if (r.status !== 200) failed++; }
    catch { failed++; }
    longest = Math.max(longest, performance.now() - t); probes++;
    await new Promise((r) => setTimeout(r, 20));
  }
  process.stdout.write(JSON.stringify({ probes, failed, longest }));
})();`;

async function withProbe<T>(work: () => Promise<T>) {
  const child = spawn(process.execPath, ['-e', PROBE, base], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((r) => setTimeout(r, 200));
  const result = await work();
  child.stdin.end();
  await new Promise((r) => child.on('exit', r));
  return { result, probe: JSON.parse(out) as { probes: number; failed: number; longest: number } };
}

async function post(): Promise<number> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'extract.csv');
  const t = performance.now();
  const res = await fetch(`${base}/api/v1/indirect?cva=2`, { method: 'POST', body: form });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`indirect: ${res.status} ${body.slice(0, 300)}`);
  return performance.now() - t;
}

let failed = false;
const times: number[] = [];
console.log(
  `${results.toLocaleString('en')} results (${(csv.length / 1e6).toFixed(1)} MB of CSV), ${runs} runs; load ${load()}`,
);
for (let i = 0; i < runs; i++) {
  const { result: ms, probe } = await withProbe(post);
  times.push(ms);
  console.log(
    `  run ${i + 1}: ${Math.round(ms).toLocaleString('en')} ms; /healthz meanwhile: ${probe.probes} answers, longest ${Math.round(probe.longest)} ms, ${probe.failed} failed (load ${load()})`,
  );
  if (probe.failed > 0 || probe.probes === 0) failed = true;
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
console.log(
  `median ${Math.round(median).toLocaleString('en')} ms, worst ${Math.round(times.at(-1)!).toLocaleString('en')} ms (ceiling ${ceiling.toLocaleString('en')} ms, BENCH_INDIRECT_CEILING_MS)`,
);
if (median > ceiling) failed = true;
await app.close();
await database.close();
if (failed) {
  console.log('FAIL: over the ceiling, or /healthz did not answer meanwhile');
  process.exit(1);
}
