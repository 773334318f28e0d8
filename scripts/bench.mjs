#!/usr/bin/env node
// `npm run bench`: performance figures, not pass/fail tests. Builds what is needed first.
//   1. the web app's first-load size (JavaScript and CSS, compressed as served)
//   2. the meta-analysis engine (packages/domain/bench)
//   3. a full recompute of every measurand × matrix × type, on the demo database and on one 10× its size
//   4. the HTTP API under load (autocannon, 50 connections) on the demo database and on a 10× one
import { spawnSync } from 'node:child_process';

function run(cmd, args, env = {}) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

run('npx', ['tsc', '-b', 'packages/server/tsconfig.build.json']);
run('npm', ['run', 'build', '-w', '@bvdb/web']);
console.log('\n## Web app: what a first visit downloads');
run(process.execPath, ['packages/web/scripts/first-load-size.mjs']);
console.log('\n## Meta-analysis engine');
run(process.execPath, ['packages/domain/bench/meta-analysis.bench.mjs']);
console.log('\n## Recompute and HTTP API');
run(process.execPath, ['packages/server/dist/bench/api.bench.js', ...process.argv.slice(2)]);
