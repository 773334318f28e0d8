// Issue 26, point 4 (decision 049): what a first-time page of 100 costs with the kept rows read when
// asked, how long the background fill of every published row takes and how much it delays the
// event loop meanwhile, and what a first-time page costs once the fill is over; then, after one
// dataset is saved, what the next page costs and how many kept rows survive (decision 057: only the
// saved row is read again). On the demo data and on BENCH_FILL_FACTORS× it (default 1,100);
// PostgreSQL when DATABASE_URL is set.
import { execSync } from 'node:child_process';
import { eq, sql } from 'drizzle-orm';
import { bvSpecifications } from '../db/schema.js';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ResponseCache } from '../lib/response-cache.js';
import { PublicDatasets } from '../modules/datasets/public-datasets.service.js';
import { seedDatabase } from '../seed/seed.js';
import { multiply, openBenchDatabase } from './bench-data.js';

const ROWS = 25_000;

async function benchFactor(factor: number): Promise<void> {
  const database = await openBenchDatabase(`fill_${factor}`);
  await seedDatabase(database.db, {
    demo: true,
    adminEmail: 'b@example.org',
    adminPassword: 'bench-password-1',
  });
  if (factor > 1) await multiply(database, factor);
  const cache = new ResponseCache();
  const pages = 10;
  let t = performance.now();
  for (let k = 0; k < pages; k++)
    await new PublicDatasets(database.db, cache, ROWS, false).page({ limit: 100, offset: (100 * k) % 200 });
  const cold = (performance.now() - t) / pages;
  const kept = new PublicDatasets(database.db, cache, ROWS, true);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  t = performance.now();
  kept.fillInBackground();
  await kept.settled();
  const fillSeconds = (performance.now() - t) / 1000;
  delay.disable();
  t = performance.now();
  for (let k = 0; k < pages; k++) await kept.page({ limit: 100, offset: (5000 + 100 * k) % (200 * factor) });
  const warm = (performance.now() - t) / pages;
  // One dataset saved (what its write does: a new row version, the datasets scope moved).
  const [first] = (await kept.page({ limit: 1, offset: 3 })).rows;
  await database.db
    .update(bvSpecifications)
    .set({ comment: sql`coalesce(${bvSpecifications.comment}, '') || ' '` })
    .where(eq(bvSpecifications.id, first!.spec.id));
  const before = { ...kept.adoption };
  cache.invalidate(['datasets']);
  t = performance.now();
  await kept.page({ limit: 100, offset: 100 });
  const afterWrite = performance.now() - t;
  await kept.settled();
  const survived = kept.adoption.kept - before.kept;
  const ms = (ns: number) => (ns / 1e6).toFixed(0);
  console.log(
    `| ${factor}× on ${database.kind} | ${cold.toFixed(1)} | ${kept.keptRows} rows in ${fillSeconds.toFixed(1)} s | ${ms(delay.percentile(50))} / ${ms(delay.percentile(99))} / ${ms(delay.max)} | ${warm.toFixed(2)} | ${afterWrite.toFixed(1)} ms; ${survived} kept, ${kept.adoption.dropped - before.dropped} read again |`,
  );
  await database.close();
}

console.log(execSync('uptime', { encoding: 'utf8' }).trim());
console.log(
  '| data | first-time page of 100, rows read when asked (ms) | background fill | event-loop delay during the fill p50 / p99 / max (ms) | first-time page of 100 after the fill (ms) | after one dataset is saved: next page of 100 |',
);
console.log('|---|---|---|---|---|---|');
for (const factor of (process.env.BENCH_FILL_FACTORS ?? '1,100').split(',').map(Number))
  await benchFactor(factor);
console.log(execSync('uptime', { encoding: 'utf8' }).trim());
