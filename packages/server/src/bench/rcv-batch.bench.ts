// Issue 45.5 (decision 092): "10,000 pairs in under a second on the reference machine, off the event
// loop". `POST /api/v1/rcv` with 10,000 pairs on the demo database — fifty tests by id, name and
// code, a tenth of the pairs with x2 in another unit (converted by UCUM), a few bad lines — as JSON,
// as CSV, and CSV out; `/healthz` asked every 20 ms by a process of its own meanwhile. The threads
// are started and UCUM loaded after ready, in the background, as main.ts does (`startAfterReady`);
// the first batch after the start and the warm batches' median each fail above
// BENCH_RCV_BATCH_CEILING_MS (1000), a `/healthz` answer above BENCH_LOOP_HOLD_CEILING_MS (100).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { ApplicationsSchema } from '@bvdb/contract';
import { seedDatabase } from '../seed/seed.js';
import {
  listAnalyteIdsWithDatasets,
  recomputeAnalyteMetas,
} from '../modules/meta-analysis/calculation/meta-calculation.service.js';
import { startAfterReady } from '../app.js';
import { listenBenchApp, uptime } from './bench-app.js';
import { openBenchDatabase } from './bench-data.js';
import { startCpuProfile } from './cpu-profile.js';
import { mark, startProber } from './healthz-prober.js';

const ceiling = Number(process.env.BENCH_RCV_BATCH_CEILING_MS ?? 1000);
const holdCeiling = Number(process.env.BENCH_LOOP_HOLD_CEILING_MS ?? 100);
const rounds = Number(process.env.BENCH_RCV_ROUNDS ?? 5);
/** `<file>`: a CPU profile of the event loop's thread during each ask, and where its time went. */
const profile = process.env.BENCH_RCV_PROFILE;
const PAIRS = 10_000;

function post(url: string, body: string, headers: Record<string, string>) {
  const t = performance.now();
  return new Promise<{ ms: number; status: number; head: string; bytes: number }>((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      // Only the answer's head is kept (its summary): the client's own work stays small, as it shares
      // this process with the server.
      let head = '';
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        if (head.length < 1024) head += c.subarray(0, 1024).toString('utf8');
        bytes += c.length;
      });
      res.on('end', () => resolve({ ms: performance.now() - t, status: res.statusCode ?? 0, head, bytes }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const database = await openBenchDatabase('rcv_batch', { thread: true });
await seedDatabase(database.db, {
  demo: true,
  adminEmail: 'bench@example.org',
  adminPassword: 'bench-password-1',
});
for (const id of await listAnalyteIdsWithDatasets(database.db))
  await database.db.transaction((tx) => recomputeAnalyteMetas(tx, id));
const { app, base } = await listenBenchApp(database);
// Ready: the modules' warm-ups start in the background, as main.ts starts them (issue 45); a batch
// asked before they end waits for them (timed in its row when it came first).
const warmStarted = performance.now();
let warmMs: number | undefined;
const warming = startAfterReady(app).then(() => (warmMs = performance.now() - warmStarted));
const table = ApplicationsSchema.parse(await (await fetch(`${base}/api/v1/applications`)).json()).data.filter(
  (r) => r.headline && r.cvi !== null,
);
const tests = table.slice(0, 50);

/** One laboratory day: tests in turn, by id and by name; every tenth pair with x2 in g/L (x1 in mg/dL). */
const pairs = Array.from({ length: PAIRS }, (_, i) => {
  const t = tests[i % tests.length]!;
  const x1 = 50 + (i % 97);
  const x2 = x1 * (0.7 + ((i * 7) % 61) / 100);
  const test = i % 2 === 0 ? { measurand: String(t.measurand_id) } : { measurand: t.display_name };
  if (i % 500 === 499) return { ...test, x1, x2: -1, cva: 2 };
  if (i % 10 === 3) return { ...test, x1, x2: x2 / 100, unit: 'mg/dL', unit2: 'g/L', cva: 2 + (i % 5) };
  return { ...test, x1, x2, unit: 'mg/dL', cva: 2 + (i % 5) };
});
const json = JSON.stringify({ pairs });
const csvCell = (v: string | number | undefined) =>
  v === undefined ? '' : /[",]/.test(String(v)) ? `"${String(v)}"` : String(v);
const csv = `measurand,x1,x2,unit,unit2,cva\r\n${pairs
  .map((p) => {
    const u = p as { unit?: string; unit2?: string };
    return [p.measurand, p.x1, p.x2, u.unit, u.unit2, p.cva].map(csvCell).join(',');
  })
  .join('\r\n')}\r\n`;
const asks = {
  'JSON in, JSON out': { body: json, headers: { 'content-type': 'application/json' } },
  'CSV in, JSON out': { body: csv, headers: { 'content-type': 'text/csv' } },
  'CSV in, CSV out': { body: csv, headers: { 'content-type': 'text/csv', accept: 'text/csv' } },
};

const prober = startProber(base);
await new Promise((r) => setTimeout(r, 500));
await mark(prober);

console.log(
  `\n### POST /api/v1/rcv, ${PAIRS} pairs (${tests.length} tests; a tenth converted by UCUM), demo data`,
);
console.log(
  '| ask | ms (median) | each ask, ms | CPU ms of the process, threads too (median) | KB | longest /healthz ms | /healthz over 100 ms | uptime |',
);
console.log('|---|---|---|---|---|---|---|---|');
let failed = false;
async function step(name: string, ask: { body: string; headers: Record<string, string> }, n: number) {
  await new Promise((r) => setTimeout(r, 200));
  await mark(prober);
  const times: number[] = [];
  let bytes = 0;
  const stop = profile
    ? await startCpuProfile(`${profile}-${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`)
    : undefined;
  const cpu: number[] = [];
  for (let i = 0; i < n; i++) {
    const before = process.cpuUsage();
    const res = await post(`${base}/api/v1/rcv`, ask.body, ask.headers);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.head.slice(0, 300)}`);
    if (ask.headers.accept !== 'text/csv') {
      const summary = /"summary":(\{[^}]*\})/.exec(res.head)?.[1];
      const expected = { pairs: PAIRS, judged: PAIRS - PAIRS / 500, errors: PAIRS / 500 };
      if (
        !summary ||
        !isDeepStrictEqual({ ...JSON.parse(summary), significant: 0 }, { ...expected, significant: 0 })
      )
        throw new Error(`${name}: ${summary ?? res.head.slice(0, 300)}`);
    }
    times.push(res.ms);
    bytes = res.bytes;
  }
  if (stop) console.log(await stop());
  await new Promise((r) => setTimeout(r, 60));
  const seen = await mark(prober);
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `| ${name} | ${median.toFixed(0)} | ${times.map((t) => t.toFixed(0)).join(', ')} | ${[...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)]!.toFixed(0)} | ${(bytes / 1024).toFixed(0)} | ${seen.worst.toFixed(0)} | ${seen.over}/${seen.count} | ${uptime()} |`,
  );
  // The first batch after a start as the warm ones: its one time is its median.
  if (median > ceiling || seen.worst > holdCeiling) failed = true;
}

// The machine's own noise: /healthz while nothing is asked (a shared machine's load shows here).
await new Promise((r) => setTimeout(r, 200));
await mark(prober);
await new Promise((r) => setTimeout(r, 2000));
const idle = await mark(prober);
console.log(
  `| nothing asked (2 s: the machine's noise) | — | — | — | — | — | ${idle.worst.toFixed(0)} | ${idle.over}/${idle.count} | ${uptime()} |`,
);
// The warm-up after ready (threads started, UCUM loaded, the menu's catalogue read), on its own row:
// the first batch is asked once it is over, as one a laboratory sends after a start.
await warming;
console.log(
  `| the warm-up after ready (threads, UCUM, catalogue) | ${warmMs!.toFixed(0)} | — | — | — | — | — | ${uptime()} |`,
);
await step('the first batch after a start', asks['JSON in, JSON out'], 1);
for (const [name, ask] of Object.entries(asks)) await step(name, ask, rounds);
prober.kill();
await app.close();
await database.close();
if (failed) {
  console.log(
    `FAIL: the first batch, or a warm batch's median, above ${ceiling} ms (BENCH_RCV_BATCH_CEILING_MS), or a /healthz answer above ${holdCeiling} ms (BENCH_LOOP_HOLD_CEILING_MS)`,
  );
  process.exit(1);
}
process.exit(0);
