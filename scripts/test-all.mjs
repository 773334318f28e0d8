#!/usr/bin/env node
// `npm test`: every check and every test, in the order that fails fastest.
//   lint → typecheck → unit and API tests on embedded PGlite → the server's API tests again on a
//   PostgreSQL server (when BVDB_TEST_PG_URL is set, as CI does) → build → browser tests (Chromium).
import { spawnSync } from 'node:child_process';

const steps = [
  ['lint', 'npm', ['run', 'lint']],
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['unit + API tests (PGlite)', 'npx', ['vitest', 'run']],
];
const pgUrl = process.env.BVDB_TEST_PG_URL;
if (pgUrl) {
  steps.push([
    'API tests (PostgreSQL server)',
    'npx',
    ['vitest', 'run', '--project', 'server'],
    { TEST_DATABASE_URL: pgUrl },
  ]);
} else {
  console.log('note: BVDB_TEST_PG_URL is not set, so the PostgreSQL-server pass is not run (CI sets it).');
}
if (process.env.BVDB_SKIP_E2E !== '1') {
  steps.push(['build', 'npm', ['run', 'build']]);
  steps.push(['browser tests (Playwright + Chromium)', 'npm', ['run', 'test:e2e']]);
}

for (const [name, cmd, args, env] of steps) {
  const started = Date.now();
  console.log(`\n=== ${name} ===`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...(env ?? {}) } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (res.status !== 0) {
    console.error(`\n✗ ${name} failed after ${secs}s`);
    process.exit(res.status ?? 1);
  }
  console.log(`✓ ${name} (${secs}s)`);
}
