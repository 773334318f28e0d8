#!/usr/bin/env node
// `npm test`: every check and every test, in the order that fails fastest, each run even after
// one failed (the run fails at the end, naming every step that failed).
//   lint → typecheck → unit and API tests on embedded PGlite → the server's API tests again on a
//   PostgreSQL server (when BVDB_TEST_PG_URL is set, as CI does; its database is created when
//   missing) → build → the first load's size budget → browser tests (Chromium).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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

/**
 * Runs every step, even after one failed, so one run shows every failure (a failed lint no longer
 * hides the PostgreSQL pass and the browser tests); a step whose `needs` failed is skipped, not run
 * on what is not there. Returns the failed and skipped step names; `run` is spawnSync-like.
 */
export function runSteps(steps, run = defaultRun, log = console) {
  const failed = [];
  const skipped = [];
  for (const { name, cmd, args, env, needs } of steps) {
    log.log(`\n=== ${name} ===`);
    if (needs && (failed.includes(needs) || skipped.includes(needs))) {
      log.error(`- ${name} skipped: ${needs} did not pass`);
      skipped.push(name);
      continue;
    }
    const started = Date.now();
    const status = run(cmd, args, env);
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    if (status !== 0) {
      log.error(`\n✗ ${name} failed after ${secs}s`);
      failed.push(name);
    } else {
      log.log(`✓ ${name} (${secs}s)`);
    }
  }
  return { failed, skipped };
}

/**
 * The failed tests of a vitest JSON report (`--reporter=json`), one line each: the file, the test's
 * full name and the first line of its error. CI shows only the tail of the log, where the vitest
 * pass's own failure list has long scrolled away behind the browser tests; `npm test` repeats this
 * list at its end so a failed run names what failed. An unreadable report gives one line saying so.
 */
export function failedTests(reportText, root = process.cwd()) {
  let report;
  try {
    report = JSON.parse(reportText);
  } catch {
    return ['(the test report could not be read: see the pass’s own output above)'];
  }
  const lines = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(root, file.name ?? '') || file.name;
    const failures = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failures) {
      const first = String(t.failureMessages?.[0] ?? '')
        .split('\n')[0]
        .slice(0, 300);
      lines.push(`${where} › ${t.fullName ?? t.title}: ${first}`);
    }
    if (failures.length === 0 && file.status === 'failed')
      lines.push(
        `${where}: ${String(file.message ?? 'failed')
          .split('\n')[0]
          .slice(0, 300)}`,
      );
  }
  return lines;
}

function vitestReport(name) {
  return path.join(os.tmpdir(), `bvdb-test-${process.pid}-${name}.json`);
}

function vitestArgs(report, extra = []) {
  return ['vitest', 'run', ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
}

function defaultRun(cmd, args, env) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...(env ?? {}) } });
  return res.status ?? 1;
}

async function main() {
  // Lint and the typecheck first: they fail fastest. Every step runs whatever came before.
  const steps = [
    { name: 'lint', cmd: 'npm', args: ['run', 'lint'] },
    { name: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'] },
    {
      name: 'unit + API tests (PGlite)',
      cmd: 'npx',
      args: vitestArgs(vitestReport('pglite')),
      report: vitestReport('pglite'),
    },
  ];
  const failedBefore = [];
  const pgUrl = process.env.BVDB_TEST_PG_URL;
  if (pgUrl) {
    let usable = true;
    try {
      if (await ensureDatabase(pgUrl))
        console.log(`created the database named in BVDB_TEST_PG_URL (${pgUrl})`);
    } catch (err) {
      console.error(`✗ cannot use the PostgreSQL server in BVDB_TEST_PG_URL (${pgUrl}): ${err.message}`);
      failedBefore.push('API tests (PostgreSQL server)');
      usable = false;
    }
    if (usable)
      steps.push({
        name: 'API tests (PostgreSQL server)',
        cmd: 'npx',
        args: vitestArgs(vitestReport('pg'), ['--project', 'server']),
        report: vitestReport('pg'),
        env: { TEST_DATABASE_URL: pgUrl },
      });
  } else {
    console.log('note: BVDB_TEST_PG_URL is not set, so the PostgreSQL-server pass is not run (CI sets it).');
  }
  if (process.env.BVDB_SKIP_E2E !== '1') {
    steps.push({ name: 'build', cmd: 'npm', args: ['run', 'build'] });
    steps.push({
      name: 'first-load budget (120 KiB of JavaScript gzipped on every server-rendered page, decision 088)',
      cmd: 'node',
      args: ['packages/web/scripts/first-load-size.mjs', '--check'],
      needs: 'build',
    });
    steps.push({
      name: 'browser tests (Playwright + Chromium)',
      cmd: 'npm',
      args: ['run', 'test:e2e'],
      needs: 'build',
    });
  }

  const { failed, skipped } = runSteps(steps);
  failed.unshift(...failedBefore);
  for (const step of steps) {
    if (!step.report || !failed.includes(step.name)) continue;
    const text = fs.existsSync(step.report) ? fs.readFileSync(step.report, 'utf8') : '';
    console.error(`\n✗ ${step.name}: the failed tests`);
    for (const line of failedTests(text)) console.error(`  - ${line}`);
  }
  for (const step of steps) if (step.report) fs.rmSync(step.report, { force: true });
  if (failed.length > 0 || skipped.length > 0) {
    console.error(
      `\n✗ failed: ${failed.join(', ') || 'none'}${skipped.length ? `; skipped: ${skipped.join(', ')}` : ''}`,
    );
    process.exit(1);
  }
  console.log('\n✓ every step passed');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
