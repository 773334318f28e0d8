#!/usr/bin/env node
// `npm test`: every check and every test, in the order that fails fastest.
//   lint → typecheck → unit and API tests on embedded PGlite → the server's API tests again on a
//   PostgreSQL server (when BVDB_TEST_PG_URL is set, as CI does; its database is created when
//   missing) → build → the first load's size budget → browser tests (Chromium).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The PostgreSQL pass creates a fresh database per test file through the one in BVDB_TEST_PG_URL,
 * so that one must exist. A fresh server (CI) has only `postgres`: create it there when missing.
 * Returns whether it was created.
 */
export async function ensureDatabase(url) {
  const { default: pg } = await import('pg');
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return false;
  } catch (err) {
    if (err.code !== '3D000') throw err; // invalid_catalog_name: the database does not exist
  } finally {
    await probe.end().catch(() => undefined);
  }
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    await admin.query(`create database "${name.replaceAll('"', '""')}"`);
  } catch (err) {
    if (err.code !== '42P04') throw err; // duplicate_database: created meanwhile
  } finally {
    await admin.end();
  }
  return true;
}

async function main() {
  const steps = [
    ['lint', 'npm', ['run', 'lint']],
    ['typecheck', 'npm', ['run', 'typecheck']],
    ['unit + API tests (PGlite)', 'npx', ['vitest', 'run']],
  ];
  const pgUrl = process.env.BVDB_TEST_PG_URL;
  if (pgUrl) {
    try {
      if (await ensureDatabase(pgUrl))
        console.log(`created the database named in BVDB_TEST_PG_URL (${pgUrl})`);
    } catch (err) {
      console.error(`✗ cannot use the PostgreSQL server in BVDB_TEST_PG_URL (${pgUrl}): ${err.message}`);
      process.exit(1);
    }
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
    steps.push([
      'first-load budget (150 KB of JavaScript gzipped, decision 028)',
      'node',
      ['packages/web/scripts/first-load-size.mjs', '--check'],
    ]);
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
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
