#!/usr/bin/env node
// `npm start`: rebuild whatever is older than its sources (so `git pull && npm start` never serves
// stale code), then run the server (API + app + job worker) in this very process, so the pid that
// Docker, systemd or pm2 signal is the server's. BVDB_SKIP_BUILD=1 skips the check (a tree built
// once, e.g. in an image).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
/** Written after a successful build: tsc leaves outputs untouched when their content is unchanged. */
const STAMP = '.bvdb-built';

const isTest = (name) => /\.test\.tsx?$/.test(name) || name === 'test' || name === 'test-data.ts';

/** Newest modification time (ms) under the given files and folders; 0 when none exists. */
function newest(root, entries, { skipTests = false, skip = [] } = {}) {
  let max = 0;
  const visit = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (!st.isDirectory()) {
      max = Math.max(max, st.mtimeMs);
      return;
    }
    for (const name of fs.readdirSync(p)) {
      if (skipTests && isTest(name)) continue;
      if (skip.includes(name)) continue;
      visit(path.join(p, name));
    }
  };
  for (const e of entries) visit(path.join(root, e));
  return max;
}

const shared = ['package.json', 'package-lock.json', 'tsconfig.base.json'];
const workspace = (name) => [
  `packages/${name}/src`,
  `packages/${name}/package.json`,
  `packages/${name}/tsconfig.json`,
  `packages/${name}/tsconfig.build.json`,
];

/**
 * The parts whose build is missing or older than their sources: 'server' (domain, contract and
 * server, built together by `tsc -b`) and 'web' (the browser app and its server renderer).
 */
export function staleParts(root = repoRoot) {
  const parts = [];
  const serverStale = [
    ['domain', 'index.js'],
    ['contract', 'index.js'],
    ['server', 'main.js'],
  ].some(([name, entry]) => {
    if (!fs.existsSync(path.join(root, `packages/${name}/dist/${entry}`))) return true;
    const inputs = newest(root, [...shared, ...workspace(name)], { skipTests: true });
    return newest(root, [`packages/${name}/dist`]) < inputs;
  });
  if (serverStale || bundleStale(root)) parts.push('server');
  const webInputs = newest(
    root,
    [
      ...shared,
      'packages/domain/src',
      'packages/contract/src',
      ...workspace('web'),
      'packages/web/index.html',
      'packages/web/vite.config.ts',
      'packages/web/public',
      'packages/web/build',
      'packages/web/scripts',
    ],
    { skipTests: true },
  );
  const webBuilt = fs.existsSync(path.join(root, 'packages/web/dist/index.html'))
    ? Math.min(newest(root, ['packages/web/dist']), newest(root, ['packages/web/dist-ssr']))
    : 0;
  if (webBuilt < webInputs) parts.push('web');
  return parts;
}

/** dist/bundle/main.js (decision 105): what `npm start` runs when it is as new as every built module. */
export const BUNDLE = 'packages/server/dist/bundle/main.js';
const UNBUNDLED = 'packages/server/dist/main.js';

/**
 * Whether the server's bundle is missing or older than any module `tsc -b` wrote (it rewrites only
 * the files whose output changed, so every one counts, not dist/main.js alone).
 */
export function bundleStale(root = repoRoot) {
  const bundled = fs.statSync(path.join(root, BUNDLE), { throwIfNoEntry: false });
  if (!bundled) return true;
  const modules = ['domain', 'contract', 'server'].map((name) => `packages/${name}/dist`);
  return bundled.mtimeMs < newest(root, modules, { skip: ['bundle', STAMP, '.tsbuildinfo'] });
}

/**
 * The server's entry to run: the bundle, or the modules `tsc -b` wrote when the bundle is missing
 * or older than them (a tree built with `tsc -b` alone, BVDB_SKIP_BUILD=1): the same code, a
 * slower start, said on stderr.
 */
export function serverEntry(root = repoRoot) {
  if (!bundleStale(root)) return path.join(root, BUNDLE);
  console.error(
    'bvdb: packages/server/dist/bundle is missing or older than the modules tsc -b wrote: starting from the ' +
      'unbundled modules (a slower start; `npm run build` bundles them, decision 105)',
  );
  return path.join(root, UNBUNDLED);
}

function run(cmd, args) {
  // The build's output goes to stderr: stdout is the server's JSON log, or a command's answer
  // (`npm run export` writes the database file to stdout).
  const res = spawnSync(cmd, args, { stdio: ['ignore', 2, 2], cwd: repoRoot });
  if (res.status !== 0) {
    console.error('bvdb: the build failed; not starting.');
    process.exit(res.status ?? 1);
  }
}

function stamp(folders) {
  for (const f of folders) fs.writeFileSync(path.join(repoRoot, f, STAMP), `${new Date().toISOString()}\n`);
}

/**
 * Builds the parts (of `wanted`) that are missing or older than their sources. The operators'
 * commands (scripts/cli.mjs) want the server only: they never serve the web app.
 */
export function buildStale(wanted = ['server', 'web']) {
  const stale = staleParts().filter((part) => wanted.includes(part));
  if (stale.includes('server')) {
    console.error('bvdb: the server is older than its sources: building it…');
    run(process.execPath, [
      path.join(repoRoot, 'node_modules/typescript/bin/tsc'),
      '-b',
      'packages/server/tsconfig.build.json',
    ]);
    run(process.execPath, [path.join(repoRoot, 'packages/server/scripts/bundle.mjs')]);
    stamp(['packages/domain/dist', 'packages/contract/dist', 'packages/server/dist']);
  }
  if (stale.includes('web')) {
    console.error('bvdb: the web app is older than its sources: building it…');
    run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '-w', '@bvdb/web']);
    stamp(['packages/web/dist', 'packages/web/dist-ssr']);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.env.BVDB_SKIP_BUILD !== '1') buildStale();
  // The server runs here, in this process: its SIGTERM/SIGINT handlers are the ones that fire.
  await import(pathToFileURL(serverEntry()).href);
}
