// The meta-analysis recompute through the recompute worker at `BENCH_FACTOR`× the demo data (100 by default):
// the engine alone (one transaction per measurand), the drain rate of the queue after one save per
// measurand made twice (coalesced), and how soon a killed worker's measurands are taken over.
import { performance } from 'node:perf_hooks';
import { openDatabase, type Database } from '../db/client.js';
import { seedDatabase } from '../seed/seed.js';
import { multiply } from './bench-data.js';
import { RecomputeWorker } from '../modules/recompute-queue/recompute-worker.js';
import {
  countPendingRecomputes,
  drainOnce,
  requestRecompute,
} from '../modules/recompute-queue/recompute.service.js';
import {
  listAnalyteIdsWithDatasets,
  recomputeAnalyteMetas,
} from '../modules/meta-analysis/calculation/meta-calculation.service.js';

const factor = Number(process.env.BENCH_FACTOR ?? 100);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function untilDrained(database: Database, since: number, timeoutMs = 600_000) {
  while ((await countPendingRecomputes(database.db)) > 0) {
    if (performance.now() - since > timeoutMs) throw new Error('the queue did not drain in time');
    await sleep(20);
  }
  return performance.now() - since;
}

const database = await openDatabase({ dataDir: 'memory://' });
await seedDatabase(database.db, {
  demo: true,
  adminEmail: 'bench@example.org',
  adminPassword: 'bench-password-1',
});
if (factor > 1) await multiply(database, factor);
const ids = await listAnalyteIdsWithDatasets(database.db);
console.log(`\n### Recompute through the recompute worker, ${factor}× demo data (${ids.length} measurands)`);

// CPU seconds as well as wall-clock ones: on a shared machine the wall clock measures the neighbours.
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};
let cpu = process.cpuUsage();
let t = performance.now();
for (const id of ids) await database.db.transaction((tx) => recomputeAnalyteMetas(tx, id));
const engineMs = performance.now() - t;
const engineCpu = cpuSeconds(cpu);

// Two saves per measurand, each its own transaction with its request (as the dataset form does).
t = performance.now();
for (let k = 0; k < 2; k++) {
  for (const id of ids)
    await database.db.transaction((tx) =>
      requestRecompute(tx, { analyteIds: [id], cause: { kind: 'dataset', role: 'curator' } }),
    );
}
const requestMs = performance.now() - t;
const queued = await countPendingRecomputes(database.db);
const queue = new RecomputeWorker(database, () => undefined);
cpu = process.cpuUsage();
t = performance.now();
await queue.start({ work: true });
const drainMs = await untilDrained(database, t);
const drainCpu = cpuSeconds(cpu);
await queue.stop();

// A worker killed part-way: it stops after 5 committed chunks, holding its claims.
const killRun = async () => {
  await database.db.transaction((tx) => requestRecompute(tx, { cause: { kind: 'import', role: 'system' } }));
  let commits = 0;
  const opts = {
    worker: 'killed',
    batchSize: 200,
    chunkSize: 25,
    leaseSeconds: 30,
    maxAttempts: 3,
    retryDelaySeconds: 5,
  };
  await drainOnce(database.db, opts, () => {
    if (++commits === 5) throw new Error('killed');
  }).catch(() => undefined);
};
// Embedded database: the restarted process releases the dead claims at start.
await killRun();
const restarted = new RecomputeWorker(database, () => undefined);
t = performance.now();
await restarted.start({ work: true });
const restartMs = await untilDrained(database, t);
await restarted.stop();
// A PostgreSQL server with several workers: another worker takes over when the lease lapses.
await killRun();
const other = new RecomputeWorker({ ...database, kind: 'postgres' }, () => undefined);
t = performance.now();
await other.start({ work: true });
const leaseMs = await untilDrained(database, t);
await other.stop();

const rate = (n: number, ms: number) => Math.round((n * 1000) / ms);
console.log('| what | measurands | seconds | measurands/s | CPU s | measurands per CPU s |');
console.log('|---|---|---|---|---|---|');
console.log(
  `| engine alone (a transaction per measurand) | ${ids.length} | ${(engineMs / 1000).toFixed(1)} | ${rate(ids.length, engineMs)} | ${engineCpu.toFixed(1)} | ${Math.round(ids.length / engineCpu)} |`,
);
console.log(
  `| queueing 2 saves per measurand (${2 * ids.length} requests → ${queued} rows) | ${queued} | ${(requestMs / 1000).toFixed(1)} | ${rate(2 * ids.length, requestMs)} requests/s | | |`,
);
console.log(
  `| drain through the queue | ${queued} | ${(drainMs / 1000).toFixed(1)} | ${rate(queued, drainMs)} | ${drainCpu.toFixed(1)} | ${Math.round(queued / drainCpu)} |`,
);
console.log(
  `killed worker, embedded restart: every measurand recomputed ${(restartMs / 1000).toFixed(1)} s after the restart`,
);
console.log(
  `killed worker, another worker (lease 30 s): every measurand recomputed ${(leaseMs / 1000).toFixed(1)} s after it started`,
);
await database.close();
