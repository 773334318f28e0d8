import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// `npm start` (scripts/start.mjs) and the start of the built server, run as an operator would.
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const startScript = path.join(repo, 'scripts/start.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-start-'));
const children: ChildProcess[] = [];

type StartModule = {
  staleParts: (root: string) => string[];
  bundleStale: (root: string) => boolean;
  serverEntry: (root: string) => string;
};
const loadStartModule = async () => (await import(pathToFileURL(startScript).href)) as StartModule;

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function startServer(
  env: Record<string, string>,
  as: { uid: number; gid: number; cwd: string } | undefined = undefined,
) {
  const child = spawn(process.execPath, [startScript], {
    cwd: as?.cwd ?? tmp,
    ...(as ? { uid: as.uid, gid: as.gid } : {}),
    env: {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      WEB_DIST: '/nonexistent',
      ADMIN_EMAIL: 'admin@example.org',
      ADMIN_PASSWORD: 'test-password-123',
      BVDB_SKIP_BUILD: '1',
      ...env,
    },
  });
  children.push(child);
  let output = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output, stdout: () => stdout };
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('staleness check of npm start', () => {
  const root = path.join(tmp, 'tree');
  const file = (rel: string, ageSeconds: number) => {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, 'x');
    const t = new Date(Date.now() - ageSeconds * 1000);
    fs.utimesSync(p, t, t);
  };

  beforeAll(() => {
    for (const f of ['package.json', 'package-lock.json', 'tsconfig.base.json']) file(f, 100);
    for (const p of ['domain', 'contract', 'server', 'web']) file(`packages/${p}/package.json`, 100);
    file('packages/domain/src/index.ts', 100);
    file('packages/contract/src/index.ts', 100);
    file('packages/server/src/main.ts', 100);
    file('packages/web/src/main.tsx', 100);
    file('packages/web/index.html', 100);
    file('packages/domain/dist/index.js', 50);
    file('packages/contract/dist/index.js', 50);
    file('packages/server/dist/main.js', 50);
    file('packages/server/dist/bundle/main.js', 50);
    file('packages/web/dist/index.html', 50);
    file('packages/web/dist-ssr/entry-server.js', 50);
  });

  it('finds nothing to build when every build is newer than its sources', async () => {
    const { staleParts } = await loadStartModule();
    expect(staleParts(root)).toEqual([]);
    file('packages/server/src/main.test.ts', 10); // tests are not part of the build
    file('packages/web/src/test/setup.ts', 10);
    expect(staleParts(root)).toEqual([]);
  });

  it('rebuilds the server after a server source changed (git pull), and only the server', async () => {
    const { staleParts } = await loadStartModule();
    file('packages/server/src/modules/new.service.ts', 10);
    expect(staleParts(root)).toEqual(['server']);
    file('packages/server/dist/.bvdb-built', 5);
    expect(staleParts(root)).toEqual([]);
  });

  it('rebuilds both after a shared source changed, the web app after its page changed', async () => {
    const { staleParts } = await loadStartModule();
    file('packages/domain/src/rounding.ts', 4);
    expect(staleParts(root)).toEqual(['server', 'web']);
    file('packages/domain/dist/.bvdb-built', 3);
    file('packages/web/dist/.bvdb-built', 3);
    file('packages/web/dist-ssr/.bvdb-built', 3);
    expect(staleParts(root)).toEqual([]);
    file('packages/web/index.html', 1);
    expect(staleParts(root)).toEqual(['web']);
  });

  it('bundles the server again when a module tsc wrote is newer than the bundle, and runs the bundle only when it is current (decision 105)', async () => {
    const { staleParts, bundleStale, serverEntry } = await loadStartModule();
    const bundle = path.join(root, 'packages/server/dist/bundle/main.js');
    expect(bundleStale(root)).toBe(false);
    expect(serverEntry(root)).toBe(bundle);
    // `tsc -b` alone rewrote one module (not dist/main.js): the bundle is behind it.
    file('packages/server/dist/modules/new.service.js', 2);
    expect(bundleStale(root)).toBe(true);
    expect(staleParts(root)).toContain('server');
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(serverEntry(root)).toBe(path.join(root, 'packages/server/dist/main.js'));
    expect(stderr.mock.calls[0]?.[0]).toContain('packages/server/dist/bundle is missing or older');
    stderr.mockRestore();
    // The stamp `npm start` writes after a build is not a module.
    file('packages/server/dist/bundle/main.js', 1);
    file('packages/server/dist/.bvdb-built', 0);
    expect(bundleStale(root)).toBe(false);
    expect(staleParts(root)).not.toContain('server');
    fs.rmSync(path.join(root, 'packages/server/dist/bundle'), { recursive: true });
    expect(bundleStale(root)).toBe(true);
    expect(staleParts(root)).toContain('server');
    file('packages/server/dist/bundle/main.js', 0);
  });

  it('builds what was never built', async () => {
    const { staleParts } = await loadStartModule();
    fs.rmSync(path.join(root, 'packages/web/dist'), { recursive: true });
    fs.rmSync(path.join(root, 'packages/contract/dist'), { recursive: true });
    expect(staleParts(root)).toEqual(['server', 'web']);
  });
});

describe('npm start as a service', () => {
  beforeAll(async () => {
    // These tests run the built server as `npm start` does (the bundle, decision 105): build and
    // bundle it if it is older than its sources.
    const { staleParts, bundleStale } = await loadStartModule();
    if (staleParts(repo).includes('server')) {
      const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
      const res = spawnSync(process.execPath, [tsc, '-b', 'packages/server/tsconfig.build.json'], {
        cwd: repo,
      });
      if (res.status !== 0) throw new Error(`the server build failed: ${res.stdout.toString()}`);
    }
    if (bundleStale(repo)) {
      const res = spawnSync(process.execPath, [path.join(repo, 'packages/server/scripts/bundle.mjs')], {
        cwd: repo,
      });
      if (res.status !== 0) throw new Error(`the bundle failed: ${res.stderr.toString()}`);
    }
  });

  it('is the process that receives SIGTERM: one signal to its pid stops the server', async () => {
    const port = await freePort();
    const server = startServer({
      PORT: String(port),
      DATA_DIR: path.join(tmp, 'signal-data'),
      SHUTDOWN_DRAIN_SECONDS: '0',
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.output()}`);
      if (Date.now() > deadline) throw new Error(`not ready after 90 s: ${server.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const sentAt = performance.now();
    server.child.kill('SIGTERM');
    const { code } = await server.exited;
    const ms = performance.now() - sentAt;
    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    expect(await portOpen(port)).toBe(false);
    // The folder was released on the way out.
    expect(fs.existsSync(path.join(tmp, 'signal-data', '.bvdb.lock'))).toBe(false);
  });

  it('on SIGTERM answers /readyz 503 at once, keeps serving for SHUTDOWN_DRAIN_SECONDS, then exits 0; every stdout line is JSON', async () => {
    const port = await freePort();
    const dataDir = path.join(tmp, 'drain-data');
    const server = startServer({
      PORT: String(port),
      DATA_DIR: dataDir,
      SHUTDOWN_DRAIN_SECONDS: '3',
      LOG_LEVEL: 'info',
      METRICS: 'on',
      // No ADMIN_PASSWORD: the generated one goes to a file, and the log line says where.
      ADMIN_PASSWORD: '',
    });
    await waitReady(port, server);
    const base = `http://127.0.0.1:${port}`;
    // A kept read twice (the second through the fast read path), a request id given by a proxy.
    for (let i = 0; i < 2; i++) expect((await fetch(`${base}/api/meta`)).status).toBe(200);
    const given = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'lb-abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('lb-abc-123');
    const sentAt = performance.now();
    server.child.kill('SIGTERM');
    let readyz: Response | undefined;
    for (;;) {
      readyz = await fetch(`${base}/readyz`);
      if (readyz.status === 503 || performance.now() - sentAt > 2000) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toEqual({ status: 'unavailable', message: 'shutting down' });
    expect(performance.now() - sentAt).toBeLessThan(1500);
    // Still serving everything else during the drain window.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // A success carries a request id only when the client sent one (decision 089).
    const meta = await fetch(`${base}/api/meta`, { headers: { 'x-request-id': 'lb-drain-1' } });
    expect(meta.status).toBe(200);
    expect(meta.headers.get('x-request-id')).toBe('lb-drain-1');
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
    const { code } = await server.exited;
    const seconds = (performance.now() - sentAt) / 1000;
    expect(code, server.output()).toBe(0);
    expect(seconds).toBeGreaterThan(2.9);
    expect(seconds).toBeLessThan(13);
    const lines = server
      .stdout()
      .split('\n')
      .filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(5);
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`not a JSON line on stdout: ${line}`);
      }
    });
    const messages = parsed.map((l) => l.msg);
    expect(messages).toContain('migrations applied');
    expect(messages).toContain('shutting down: draining');
    expect(messages).toContain('closing');
    const password = parsed.find((l) => typeof l.file === 'string');
    expect(password?.file).toBe(path.join(dataDir, 'admin-password.txt'));
    expect(server.stdout()).not.toContain(
      fs.readFileSync(path.join(dataDir, 'admin-password.txt'), 'utf8').split('\n')[1]!,
    );
    // Request lines carry the request id, the proxy's one kept.
    expect(parsed.some((l) => l.reqId === 'lb-abc-123')).toBe(true);
  });

  it('waits for an unreachable PostgreSQL with back-off, names it without its password, then exits 75', async () => {
    const closed = await freePort(); // nothing listens there
    const startedAt = performance.now();
    const server = startServer({
      PORT: String(await freePort()),
      DATA_DIR: path.join(tmp, 'unreachable-data'),
      DATABASE_URL: `postgres://bvdb:s3cret-pw@127.0.0.1:${closed}/bvdb`,
      DATABASE_WAIT_SECONDS: '2',
    });
    const { code } = await server.exited;
    const seconds = (performance.now() - startedAt) / 1000;
    expect(code, server.output()).toBe(75);
    const out = server.output();
    expect(out).not.toContain('s3cret-pw');
    expect(out).toContain(`postgres://bvdb:***@127.0.0.1:${closed}/bvdb`);
    // 0.5 + 1 s of pauses, then the rest of the 2 s: several attempts, a bounded wait.
    expect(out.match(/trying again in/g)?.length).toBeGreaterThanOrEqual(2);
    expect(out).toContain('DATABASE_WAIT_SECONDS');
    expect(seconds).toBeGreaterThan(1.9);
    expect(seconds).toBeLessThan(30);
  });

  it('refuses a busy port before it creates a data folder, naming PORT', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as net.AddressInfo;
    try {
      const dataDir = path.join(tmp, 'never-created');
      const server = startServer({ PORT: String(port), DATA_DIR: dataDir });
      const { code } = await server.exited;
      expect(code).toBe(75);
      expect(server.output()).toContain(`port ${port}`);
      expect(server.output()).toContain('PORT');
      expect(fs.existsSync(dataDir)).toBe(false);
    } finally {
      busy.close();
    }
  });
});

describe('the operator commands around a start', () => {
  it('stops a start whose DATA_DIR cannot be created, naming DATA_DIR, with exit 78', async () => {
    // A path under a file: not even root can create it (permissions alone would not stop root).
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, '');
    const server = startServer({ PORT: String(await freePort()), DATA_DIR: path.join(file, 'data') });
    const { code } = await server.exited;
    expect(code).toBe(78);
    expect(server.output()).toContain('DATA_DIR');
    expect(server.output()).toContain('cannot be written');
  });

  it('stops a start whose DATA_DIR exists but is read-only for its user, naming DATA_DIR, with exit 78', async () => {
    // Root writes through permissions: as root, the server runs as `nobody`, the operator's case of
    // a volume owned by another user; as anyone else, the folder is simply made read-only.
    const root = process.getuid?.() === 0;
    const place = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-readonly-'));
    fs.chmodSync(place, 0o755);
    const dataDir = path.join(place, 'data');
    fs.mkdirSync(dataDir, { mode: 0o555 });
    fs.chmodSync(dataDir, 0o555);
    try {
      const server = startServer(
        { PORT: String(await freePort()), DATA_DIR: dataDir },
        root ? { uid: 65534, gid: 65534, cwd: place } : undefined,
      );
      const { code } = await server.exited;
      expect(code, server.output()).toBe(78);
      expect(server.output()).toContain(`DATA_DIR ${dataDir} cannot be written (EACCES)`);
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(place, { recursive: true, force: true });
    }
  });

  it('stops at once with exit 78 on a malformed DATABASE_URL (a password with "/"), naming it, without its password; so does migrate', async () => {
    // Before 1.1.0 this was retried for DATABASE_WAIT_SECONDS, then exit 75 (issue 43.10).
    const url = 'postgres://bvdb:12/s3cret@127.0.0.1:5432/bvdb';
    const dataDir = path.join(tmp, 'malformed-url-data');
    const startedAt = performance.now();
    const server = startServer({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      DATABASE_WAIT_SECONDS: '300',
    });
    const { code } = await server.exited;
    expect(code, server.output()).toBe(78);
    // Never tried: no attempt, no back-off (the bound allows a slow start on a busy machine).
    expect(server.output()).not.toMatch(/trying again|cannot reach/);
    expect((performance.now() - startedAt) / 1000).toBeLessThan(120);
    expect(server.output()).toContain('DATABASE_URL:');
    expect(server.output()).toContain('PGPASSWORD');
    expect(server.output()).not.toContain('s3cret');
    expect(fs.existsSync(dataDir)).toBe(false);
    const migrate = spawnSync(process.execPath, [path.join(repo, 'packages/server/dist/cli/migrate.js')], {
      cwd: tmp,
      env: { PATH: process.env.PATH, DATABASE_URL: url, DATABASE_WAIT_SECONDS: '300' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(migrate.status, migrate.stderr).toBe(78);
    expect(migrate.stderr).not.toMatch(/trying again|cannot reach/);
    expect(migrate.stderr).toContain('DATABASE_URL:');
  }, 300_000);

  it(`refuses the sample ADMIN_PASSWORD of .env.example with exit 78 naming it, before a data folder exists`, async () => {
    const dataDir = path.join(tmp, 'sample-password-data');
    const server = startServer({
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'change-me-too',
    });
    const { code } = await server.exited;
    expect(code, server.output()).toBe(78);
    expect(server.output()).toContain('ADMIN_PASSWORD: is the public sample value of .env.example');
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('npm run migrate applies the migrations once and nothing else (no administrator, no server)', () => {
    const dataDir = path.join(tmp, 'migrate-only');
    const migrate = () =>
      spawnSync(process.execPath, [path.join(repo, 'packages/server/dist/cli/migrate.js')], {
        cwd: tmp,
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        timeout: 120_000,
      });
    const first = migrate();
    expect(first.status, first.stderr).toBe(0);
    const line = JSON.parse(first.stdout.trim().split('\n').at(-1)!) as { msg: string; applied: string[] };
    expect(line.msg).toBe('migrations applied');
    expect(line.applied.length).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(dataDir, 'admin-password.txt'))).toBe(false);
    const again = migrate();
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      msg: 'migrations up to date',
      applied: [],
    });
  });
});

async function waitReady(port: number, server: ReturnType<typeof startServer>): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.output()}`);
    if (Date.now() > deadline) throw new Error(`not ready after 120 s: ${server.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'replicas started together on an empty PostgreSQL database',
  () => {
    it('both start: migrations, demo data and the administrator are made once, one process after the other', async () => {
      const { default: pg } = await import('pg');
      const url = new URL(process.env.TEST_DATABASE_URL!);
      const name = `bvdb_replicas_${Date.now()}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      url.pathname = `/${name}`;
      try {
        const ports = [await freePort(), await freePort()];
        const servers = ports.map((port, i) =>
          startServer({
            PORT: String(port),
            DATA_DIR: path.join(tmp, `replica-${i}`),
            DATABASE_URL: url.toString(),
            SEED_DEMO: 'true',
            // One all-in-one process and one web replica, named apart in pg_stat_activity.
            ROLE: i === 0 ? 'all' : 'web',
          }),
        );
        await Promise.all(ports.map((port, i) => waitReady(port, servers[i]!)));
        for (const s of servers) expect(s.output()).not.toMatch(/failed to start|insert into/i);
        const db = new pg.Client({ connectionString: url.toString() });
        await db.connect();
        const users = await db.query(`select count(*)::int as n from users where role = 'admin'`);
        const refs = await db.query(
          'select count(*)::int as n, count(distinct title)::int as titles from "references"',
        );
        await db.end();
        expect((users.rows[0] as { n: number }).n).toBe(1);
        const { n, titles } = refs.rows[0] as { n: number; titles: number };
        expect(n).toBeGreaterThan(0);
        expect(n).toBe(titles); // the demo references once, not twice
        const names = await admin.query<{ application_name: string }>(
          'select distinct application_name from pg_stat_activity where datname = $1 order by 1',
          [name],
        );
        expect(names.rows.map((r) => r.application_name)).toEqual(['bvdb', 'bvdb-listen', 'bvdb-web']);
        for (const s of servers) s.child.kill('SIGTERM');
        await Promise.all(servers.map((s) => s.exited));
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    });
  },
);

describe.skipIf(!process.env.TEST_DATABASE_URL)('npm test on a fresh PostgreSQL server', () => {
  it('creates the database named in BVDB_TEST_PG_URL when it is missing', async () => {
    const testAll = pathToFileURL(path.join(repo, 'scripts/test-all.mjs')).href;
    const { ensureDatabase } = (await import(testAll)) as {
      ensureDatabase: (url: string) => Promise<boolean>;
    };
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const name = `bvdb_ci_${Date.now()}`;
    url.pathname = `/${name}`;
    const { default: pg } = await import('pg');
    try {
      expect(await ensureDatabase(url.toString())).toBe(true);
      expect(await ensureDatabase(url.toString())).toBe(false);
    } finally {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  });
});

describe('npm test (scripts/test-all.mjs)', () => {
  type Step = { name: string; cmd: string; args: string[]; needs?: string };
  type TestAll = {
    runSteps: (
      steps: Step[],
      run: (cmd: string) => number,
      log: { log: () => void; error: () => void },
    ) => { failed: string[]; skipped: string[] };
  };

  it('runs every step after a failed one, and skips only what needs a step that failed', async () => {
    const { runSteps } = (await import(
      pathToFileURL(path.join(repo, 'scripts/test-all.mjs')).href
    )) as TestAll;
    const ran: string[] = [];
    const steps: Step[] = [
      { name: 'lint', cmd: 'lint', args: [] },
      { name: 'typecheck', cmd: 'typecheck', args: [] },
      { name: 'PGlite', cmd: 'pglite', args: [] },
      { name: 'PostgreSQL', cmd: 'pg', args: [] },
      { name: 'build', cmd: 'build', args: [] },
      { name: 'first load', cmd: 'size', args: [], needs: 'build' },
      { name: 'browser', cmd: 'e2e', args: [], needs: 'build' },
    ];
    const quiet = { log: () => undefined, error: () => undefined };
    const failing = (names: string[]) => (cmd: string) => (ran.push(cmd), names.includes(cmd) ? 1 : 0);
    // A lint failure no longer hides the PostgreSQL pass and the browser tests.
    expect(runSteps(steps, failing(['lint', 'pglite']), quiet)).toEqual({
      failed: ['lint', 'PGlite'],
      skipped: [],
    });
    expect(ran).toEqual(['lint', 'typecheck', 'pglite', 'pg', 'build', 'size', 'e2e']);
    ran.length = 0;
    expect(runSteps(steps, failing(['build']), quiet)).toEqual({
      failed: ['build'],
      skipped: ['first load', 'browser'],
    });
    expect(ran).toEqual(['lint', 'typecheck', 'pglite', 'pg', 'build']);
  });

  it('names each failed test of a vitest JSON report at the end, and says when the report is unreadable', async () => {
    const { failedTests } = (await import(pathToFileURL(path.join(repo, 'scripts/test-all.mjs')).href)) as {
      failedTests: (text: string, root?: string) => string[];
    };
    // The shape vitest 4's json reporter writes (taken from a real report).
    const report = {
      success: false,
      testResults: [
        {
          name: '/repo/packages/server/src/a.test.ts',
          status: 'failed',
          message: '',
          assertionResults: [
            { fullName: 'group passes', status: 'passed', failureMessages: [] },
            {
              fullName: 'group fails',
              status: 'failed',
              failureMessages: ['AssertionError: expected 1 to be 2\n    at a.test.ts:3:31'],
            },
          ],
        },
        {
          name: '/repo/packages/server/src/b.test.ts',
          status: 'failed',
          message: 'Hook timed out in 120000ms\nstack',
          assertionResults: [],
        },
        { name: '/repo/packages/server/src/c.test.ts', status: 'passed', assertionResults: [] },
      ],
    };
    expect(failedTests(JSON.stringify(report), '/repo')).toEqual([
      'packages/server/src/a.test.ts › group fails: AssertionError: expected 1 to be 2',
      'packages/server/src/b.test.ts: Hook timed out in 120000ms',
    ]);
    expect(failedTests('')).toEqual(['(the test report could not be read: see the pass’s own output above)']);
  });
});
