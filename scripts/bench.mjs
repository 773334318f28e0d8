#!/usr/bin/env node
// `npm run bench`: performance figures, not pass/fail tests. Builds what is needed first.
//   1. the web app's first-load size (JavaScript and CSS, compressed as served)
//   2. the meta-analysis engine (packages/domain/bench)
//   3. a full recompute of every measurand × matrix × type, on the demo database and on one 10× its size
//   4. the HTTP API under load (autocannon, 50 connections) on the demo database and on 10× and 100× it,
//      each after a second full recompute that must write no estimate versions (issue 29)
//   5. the recompute through the job queue at 100× the demo data (BENCH_FACTOR): drain rate, takeover of a killed worker
//   6. `npm run import` of a whole-database file 100× the demo (about 20,000 datasets), and the
//      recompute after it, timed separately, in its own process, with that process's peak memory
//      (fails above BENCH_IMPORT_CEILING_S, 15); then a restart after `kill -9` on the embedded
//      database at 1×, spawn to the first 200 of /readyz (fails when the median is above
//      BENCH_RESTART_CEILING_MS, 3000, decision 103)
//   7. fifty distinct first-time pages of 100 at once, at 1× and 100× (fails when the 100× p99 from
//      kept rows is above BENCH_FIRST_PAGES_RATIO_CEILING times the 1× one, decision 069); paged,
//      single-record and whole-catalogue public reads on the demo database and on a 100× one;
//      then what one first-time page of 100 costs the event loop at 100× (fails above
//      BENCH_FIRST_PAGE_CEILING_MS, decision 065)
//   8. whole-catalogue answers against a bare Node server sending the same bytes, and search by name,
//      on the demo database and a 100× one (fails below BENCH_CATALOGUE_FLOOR)
//   8b. search by name at 1× and 100× the demo: the cost of a first ask (fails above BENCH_SEARCH_CEILING)
//       and of the first search after a measurand's or a dataset's write
//   8c. a 200-test menu at 1× and 100×: after a write, kept, its event-loop time, and a kept read's
//       ratio to bare Node while menus are posted (fails below BENCH_BUSY_READ_FLOOR, or when a
//       kept menu keeps the event loop above BENCH_MENU_LOOP_CEILING_MS, 50 ms, decision 068)
//   9. kept public reads (meta, autocomplete, a measurand's datasets, headline results, a
//      server-rendered measurand page, an estimate's history) against a bare Node server sending the same bytes (fails
//      below BENCH_CACHED_READ_FLOOR)
//  9b. estimations over HTTP (issue 31): 60 × 10 × 2 under BENCH_ESTIMATION_CEILING_MS, 10,000 rows
//      under BENCH_ESTIMATION_LARGE_CEILING_MS, the event loop's delay, and a kept read's ratio to bare
//      Node while estimations run (fails below BENCH_BUSY_READ_FLOOR)
//  9d. an indirect estimate of 100,000 routine results over HTTP under BENCH_INDIRECT_CEILING_MS (10 s),
//      /healthz asked every 20 ms from another process meanwhile (issue 46, decision 095)
//  9c. a whole release (issue 30.2) at 100× the demo: build time under BENCH_RELEASE_CEILING_S (60),
//      worst event-loop stall under BENCH_RELEASE_STALL_CEILING_MS (2000), each step's share
//  9d. the event loop during heavy first asks at 100× (fails above BENCH_LOOP_HOLD_CEILING_MS)
//  9e. 10,000 change verdicts in one POST /api/v1/rcv, JSON and CSV, /healthz asked meanwhile (fails
//      when the first batch after a start or a warm batch's median is above BENCH_RCV_BATCH_CEILING_MS,
//      1000, or /healthz above
//      BENCH_LOOP_HOLD_CEILING_MS)
//  9f. population facets at 100× (issue 47.5, decision 098): a facet recompute's first ask (fails above
//      BENCH_FACETS_FIRST_CEILING_MS, 1000) and, kept per facet set, its p99 at 10 connections (fails above
//      BENCH_FACETS_KEPT_P99_CEILING_MS, 100); the specifications table for a population
//  10. Lighthouse (mobile) on the home, measurand, summary-table, menu, releases and estimation pages, in
//      Debian's Chromium (CHROME_PATH); fails below 95 (the measurand page 97), decision 088
import { spawnSync } from 'node:child_process';

function run(cmd, args, env = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

/** A step with a floor: a ratio below it fails the bench at the end, after the other floors are printed. */
let belowFloor = false;
function runWithFloor(cmd, args) {
  const res = spawnSync(cmd, args, { stdio: 'inherit' });
  if (res.status !== 0) belowFloor = true;
}

run('npx', ['tsc', '-b', 'packages/server/tsconfig.build.json']);
run('npm', ['run', 'build', '-w', '@bvdb/web']);
console.log('\n## Web app: what a first visit downloads');
runWithFloor(process.execPath, ['packages/web/scripts/first-load-size.mjs', '--check']);
console.log('\n## Web app: Lighthouse, mobile (95 or more, the measurand page 97: decision 088)');
runWithFloor(process.execPath, ['scripts/lighthouse.mjs']);
console.log('\n## Meta-analysis engine');
run(process.execPath, ['packages/domain/bench/meta-analysis.bench.mjs']);
console.log('\n## Recompute and HTTP API');
run(process.execPath, ['packages/server/dist/bench/api.bench.js', ...process.argv.slice(2)]);
console.log('\n## Recompute through the job queue');
run(process.execPath, ['packages/server/dist/bench/drain.bench.js']);
console.log('\n## Whole-database import (issue 44.5, decision 103; BENCH_IMPORT_CEILING_S, 15)');
runWithFloor(process.execPath, ['packages/server/dist/bench/import.bench.js', ...process.argv.slice(2)]);
console.log(
  '\n## A restart after kill -9 on the embedded database at 1× (issue 44.5, decision 103; BENCH_RESTART_CEILING_MS, 3000)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/restart.bench.js']);
console.log(
  '\n## Public reads of bulk consumers (issue 14; issue 26, point 4: BENCH_API_FACTORS, default 1,100; BENCH_FIRST_PAGES_RATIO_CEILING)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/public-api.bench.js']);
console.log(
  '\n## Kept public rows filled in the background (issue 26, point 4; BENCH_FILL_FACTORS, default 1,100)',
);
run(process.execPath, ['packages/server/dist/bench/fill.bench.js']);
console.log(
  '\n## A first-time page of 100 from kept rows: event-loop ms (issue 26, point 4; BENCH_PAGE_FACTOR, default 100)',
);
runWithFloor(process.execPath, ['--expose-gc', 'packages/server/dist/bench/first-page.bench.js']);
console.log(
  '\n## Whole-catalogue answers against bare Node, search by name (issue 26; BENCH_CATALOGUE_FACTORS, default 1,100)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/catalogue.bench.js']);
console.log(
  '\n## Search by name at 1× and 100× (issue 26, point 3; BENCH_SEARCH_FACTORS, BENCH_SEARCH_CEILING)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/search.bench.js']);
console.log(
  '\n## A 200-test menu at 1× and 100× (issue 32, decisions 059 and 066; BENCH_MENU_FACTORS, BENCH_MENU_ROUNDS, BENCH_BUSY_READ_FLOOR, BENCH_MENU_LOOP_CEILING_MS)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/menu.bench.js']);
console.log(
  '\n## Kept public reads against bare Node (issue 26, points 1 and 7; issue 44.4; BENCH_CACHED_READ_FLOOR, 0.85)',
);
runWithFloor(process.execPath, ['--expose-gc', 'packages/server/dist/bench/cached-reads.bench.js']);
console.log(
  '\n## Estimations from raw results (issue 31; BENCH_ESTIMATION_CEILING_MS, BENCH_ESTIMATION_LARGE_CEILING_MS)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/estimation.bench.js']);
console.log(
  '\n## An indirect estimate of 100,000 routine results, /healthz meanwhile (issue 46, decision 095; BENCH_INDIRECT_CEILING_MS)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/indirect.bench.js']);
console.log(
  '\n## A whole release at 100× the demo (issue 30, point 2; BENCH_RELEASE_FACTOR, BENCH_RELEASE_CEILING_S, BENCH_RELEASE_STALL_CEILING_MS)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/release.bench.js']);
console.log(
  '\n## The event loop during heavy first asks at 100× (issue 44, decision 085; BENCH_LOOP_FACTOR, BENCH_LOOP_HOLD_CEILING_MS)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/loop-hold.bench.js']);
console.log(
  '\n## Change verdicts: 10,000 pairs in one batch, off the event loop (issue 45.5, decision 092; BENCH_RCV_BATCH_CEILING_MS, BENCH_LOOP_HOLD_CEILING_MS)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/rcv-batch.bench.js']);
console.log(
  '\n## Population facets at 100× (issue 47.5, decision 098; BENCH_FACETS_FACTOR, BENCH_FACETS_FIRST_CEILING_MS, BENCH_FACETS_KEPT_P99_CEILING_MS)',
);
runWithFloor(process.execPath, ['packages/server/dist/bench/facets.bench.js']);
if (belowFloor) {
  console.log(
    '\nFAIL: a ratio is below its floor, or a search, estimation, release, batch, import or restart above its ceiling (see above)',
  );
  process.exit(1);
}
