// Issue 31 (decision 060): the estimation endpoint end to end over HTTP, on the built server.
//   1. a study of 60 subjects × 10 samples × 2 replicates (1,200 rows of CSV), every step on:
//      median and worst of BENCH_ESTIMATION_RUNS requests (goal under 200 ms);
//   2. a 10,000-row file (250 × 20 × 2; goal under 2 s);
//   3. off the main thread: the event loop's longest delay while those run;
//   4. a kept public read (/api/meta) against a bare Node server sending the same bytes while
//      estimations run back to back in another process, beside the same ratio without them
//      (requests a second: the CPU per answer of the process would count the estimation threads).
// Exits 1 when a median is over its ceiling (BENCH_ESTIMATION_CEILING_MS, 200;
// BENCH_ESTIMATION_LARGE_CEILING_MS, 2000) or the read's ratio under estimations is below
// BENCH_BUSY_READ_FLOOR (0.5; the kept read alone is held to BENCH_CACHED_READ_FLOOR).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { mulberry32 } from '@bvdb/domain';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { seedDatabase } from '../seed/seed.js';
import { bareServer, fetchOnce, loadApart } from './bare-node.js';

const runs = Number(process.env.BENCH_ESTIMATION_RUNS ?? 20);
const ceiling = Number(process.env.BENCH_ESTIMATION_CEILING_MS ?? 200);
const largeCeiling = Number(process.env.BENCH_ESTIMATION_LARGE_CEILING_MS ?? 2000);
const floor = Number(process.env.BENCH_BUSY_READ_FLOOR ?? 0.5);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** A study as long-format CSV: subject means (CVG 15 %), sample means (CVI 6 %), replicates (CVA 3 %). */
function studyCsv(subjects: number, samples: number, replicates: number, seed: number): string {
  const rnd = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const lines = ['subject,sample,replicate,value'];
  for (let s = 1; s <= subjects; s++) {
    const mean = 100 * (1 + 0.15 * normal());
    for (let k = 1; k <= samples; k++) {
      const sample = mean * (1 + 0.06 * normal());
      for (let r = 1; r <= replicates; r++) {
        lines.push(`S${s},${k},${r},${(sample * (1 + 0.03 * normal())).toFixed(2)}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

const database = await openDatabase({ dataDir: 'memory://' });
await seedDatabase(database.db, {
  demo: true,
  adminEmail: 'bench@example.org',
  adminPassword: 'bench-password-1',
});
// Lifted limits (the heavy class too: estimations are heavy): the figure is the work, not 429s.
const app = await buildApp({
  config: loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_HEAVY_PER_MINUTE: '100000000',
  }),
  database,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const url = `${base}/api/v1/estimations`;

async function post(csv: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: csv });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`estimation: ${res.status} ${body.slice(0, 300)}`);
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let failed = false;

console.log(`\n### Estimations over HTTP, ${runs} requests each, one at a time (load average ${load()})`);
console.log(
  '| study | rows | CSV KB | median ms | worst ms | ceiling ms | event loop delay max ms (idle: see below) |',
);
console.log('|---|---|---|---|---|---|---|');
const studies = [
  { name: '60 subjects × 10 samples × 2 replicates', csv: studyCsv(60, 10, 2, 60), ceiling },
  { name: '250 subjects × 20 samples × 2 replicates', csv: studyCsv(250, 20, 2, 250), ceiling: largeCeiling },
];
// The first request starts the pool's thread and compiles the engine: not a user's figure.
await post(studies[0]!.csv);
// The event loop's delay with nothing to do, to read the figures below against (a shared machine).
const idle = monitorEventLoopDelay({ resolution: 10 });
idle.enable();
await new Promise((r) => setTimeout(r, 2000));
idle.disable();
for (const study of studies) {
  await post(study.csv);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await post(study.csv));
  delay.disable();
  const m = median(times);
  if (m > study.ceiling) failed = true;
  console.log(
    `| ${study.name} | ${study.csv.split('\n').length - 2} | ${(study.csv.length / 1024).toFixed(0)} | ` +
      `**${m.toFixed(0)}** | ${Math.max(...times).toFixed(0)} | ${study.ceiling} | ${(delay.max / 1e6).toFixed(1)} |`,
  );
}

console.log(`Event loop delay max with nothing running, 2 s: ${(idle.max / 1e6).toFixed(1)} ms`);

// Estimations back to back from a process of their own, while the read is measured.
const studyFile = path.join(os.tmpdir(), `bvdb-estimation-bench-${process.pid}.csv`);
writeFileSync(studyFile, studies[0]!.csv);
const LOOP = `
const fs = require('node:fs');
const [url, file] = process.argv.slice(1);
const csv = fs.readFileSync(file, 'utf8');
let n = 0;
(async () => {
  for (;;) {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: csv });
    await r.arrayBuffer();
    // Anything but 200 (a 429, a 503) would make this a lighter load than it says: stop loudly.
    if (r.status !== 200) { console.error('estimation loop: HTTP ' + r.status); process.exit(2); }
    n++;
    if (process.send) process.send(n);
  }
})();`;
function estimationsInBackground(): { stop: () => number } {
  const child = spawn(process.execPath, ['-e', LOOP, url, studyFile], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let done = 0;
  child.on('message', (n) => (done = Number(n)));
  child.on('exit', (code) => {
    if (code === 2) failed = true;
  });
  return {
    stop: () => {
      child.kill();
      return done;
    },
  };
}

const READ = { path: '/api/meta', headers: { 'accept-encoding': 'br, gzip', accept: 'application/json' } };
await fetchOnce(base + READ.path, READ.headers);
const sent = await fetchOnce(base + READ.path, READ.headers);
const bare = await bareServer(sent.body, sent.headers);
console.log(
  `\n### A kept public read (${READ.path}) against bare Node, with and without estimations running, ${connections} connections, ${rounds} × ${seconds} s (load average ${load()})`,
);
console.log(
  '| while | bvdb req/s | bare Node req/s | throughput ratio (each round) | bvdb p99 ms | estimations done |',
);
console.log('|---|---|---|---|---|---|');
let underLoad = Infinity;
for (const busy of [false, true]) {
  const background = busy ? estimationsInBackground() : null;
  const ours: Awaited<ReturnType<typeof loadApart>>[] = [];
  const theirs: Awaited<ReturnType<typeof loadApart>>[] = [];
  const t = performance.now();
  for (let i = 0; i < rounds; i++) {
    ours.push(await loadApart(base + READ.path, { seconds, connections, headers: READ.headers }));
    theirs.push(await loadApart(bare.url, { seconds, connections, headers: READ.headers }));
  }
  const done = background?.stop() ?? 0;
  const ratios = ours.map((o, i) => o.rps / theirs[i]!.rps);
  const ratio = median(ratios);
  if (busy) underLoad = ratio;
  const errors = ours.reduce((s, o) => s + o.errors, 0);
  console.log(
    `| ${busy ? 'estimations run back to back' : 'nothing else'} | ${median(ours.map((o) => o.rps)).toFixed(0)} | ` +
      `${median(theirs.map((o) => o.rps)).toFixed(0)} | **${ratio.toFixed(2)}** (${ratios.map((r) => r.toFixed(2)).join(', ')}) | ` +
      `${Math.max(...ours.map((o) => o.p99))} | ${busy ? `${done} (${((done / (performance.now() - t)) * 1000).toFixed(1)}/s)` : '—'}${errors ? `; ${errors} errors` : ''} |`,
  );
}
bare.close();
await app.close();
await database.close();
console.log(
  `Read ratio while estimations run: ${underLoad.toFixed(2)} (floor ${floor}); load average ${load()}`,
);
if (underLoad < floor) failed = true;
if (failed) {
  console.log('FAIL: an estimation is over its ceiling, or the read ratio under estimations below the floor');
  process.exitCode = 1;
}
