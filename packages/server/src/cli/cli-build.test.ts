import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * A fresh clone in miniature: the root manifests, the scripts, and the packages the server is built
 * from (sources, migrations, seed data), with no `dist`. `node_modules` holds links to the installed packages; its
 * `@bvdb` links are relative, as npm makes them, so they lead to this copy's packages.
 */
function freshClone(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-clone-'));
  const copy = (rel: string) => fs.cpSync(path.join(repo, rel), path.join(root, rel), { recursive: true });
  for (const f of [
    'package.json',
    'package-lock.json',
    'tsconfig.base.json',
    'scripts/start.mjs',
    'scripts/cli.mjs',
  ])
    copy(f);
  for (const pkg of ['domain', 'contract', 'server'])
    for (const f of fs.readdirSync(path.join(repo, 'packages', pkg)))
      if (f !== 'dist' && f !== 'node_modules') copy(`packages/${pkg}/${f}`);
  const link = (from: string, to: string) => {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    const target = fs.lstatSync(from).isSymbolicLink() ? fs.readlinkSync(from) : from;
    fs.symlinkSync(target, to);
  };
  const modules = path.join(repo, 'node_modules');
  for (const name of fs.readdirSync(modules)) {
    if (name === '@bvdb') {
      for (const ws of fs.readdirSync(path.join(modules, name)))
        link(path.join(modules, name, ws), path.join(root, 'node_modules', name, ws));
    } else link(path.join(modules, name), path.join(root, 'node_modules', name));
  }
  const serverModules = path.join(repo, 'packages/server/node_modules');
  if (fs.existsSync(serverModules)) link(serverModules, path.join(root, 'packages/server/node_modules'));
  return root;
}

const root = freshClone();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-cli-data-'));
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The embedded database in DATA_DIR, whatever database the test run was given. */
const { DATABASE_URL: _url, BVDB_SKIP_BUILD: _skip, ...embedded } = process.env;

/** `npm run <script>` as package.json spells it, run in the copy (without npm's own start-up). */
const npmRun = (script: string, args: string[], env: Record<string, string> = {}) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [node, ...scriptArgs] = manifest.scripts[script]!.split(' ');
  expect(node).toBe('node');
  const res = spawnSync(process.execPath, [...scriptArgs, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...embedded, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    timeout: 240_000,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
};

describe('the operators’ commands build what is stale first', () => {
  it('on a fresh clone (no dist) and after a change to the sources, without the web app', () => {
    // A fresh clone: the server is built, then the command runs.
    const created = npmRun('user:create', ['--email', 'first@example.org'], {
      BVDB_PASSWORD: 'cli-pass-1234',
    });
    expect(created.stderr).toContain('building it');
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe('Created curator first@example.org.');
    expect(fs.existsSync(path.join(root, 'packages/server/dist/cli/user-create.js'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'packages/web/dist'))).toBe(false);

    // Built and current: no build, and stdout is the export alone (the build never writes there).
    const exported = npmRun('export', []);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).not.toContain('building');
    const file = path.join(dataDir, 'export.json');
    fs.writeFileSync(file, exported.stdout);
    expect(JSON.parse(exported.stdout)).toHaveProperty('bvdb_version');

    const imported = npmRun('import', [file, '--dry-run']);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stderr).not.toContain('building');

    // A `git pull` that changes a command: the next run is the new code.
    const source = path.join(root, 'packages/server/src/cli/user-create.ts');
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace('`Created ${', '`Made ${'));
    const again = npmRun('user:create', ['--email', 'second@example.org'], {
      BVDB_PASSWORD: 'cli-pass-1234',
    });
    expect(again.stderr).toContain('building it');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('Made curator second@example.org.');
  }, 600_000);
});
