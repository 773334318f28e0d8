// The container image's runtime stage, run without a container daemon (these machines have none and
// cannot pull base images): the Dockerfile's last stage is read (its COPY lines, ENV, USER and CMD),
// its file set is laid out from the built tree (hard links; node_modules: the server's production
// dependencies, as the image's `npm ci --omit=dev --workspace=@bvdb/server` installs them), and its
// CMD runs as a non-root user who can write only the data folder. Issue 28.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DockerfileParser } from 'dockerfile-ast';
import { expect, test } from './helpers';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const isRoot = process.getuid?.() === 0;

interface RuntimeStage {
  env: Record<string, string>;
  user: string;
  cmd: string[];
  copies: { from: string; source: string; target: string }[];
}

/** The last stage of the Dockerfile: what the image runs. */
function readRuntimeStage(): RuntimeStage {
  const dockerfile = DockerfileParser.parse(fs.readFileSync(path.join(repo, 'Dockerfile'), 'utf8'));
  const instructions = dockerfile.getInstructions();
  const lastFrom = instructions.map((i) => i.getKeyword()).lastIndexOf('FROM');
  const stage = instructions.slice(lastFrom);
  const stage0 = {
    env: {} as Record<string, string>,
    user: '',
    cmd: [] as string[],
    copies: [] as RuntimeStage['copies'],
  };
  for (const instruction of stage) {
    const args = instruction.getArguments().map((a) => a.getValue());
    switch (instruction.getKeyword()) {
      case 'ENV':
        for (const arg of args) {
          const [k, ...v] = arg.split('=');
          stage0.env[k!] = v.join('=');
        }
        break;
      case 'USER':
        stage0.user = args[0]!;
        break;
      case 'CMD':
        stage0.cmd = JSON.parse(instruction.getRawArgumentsContent()!) as string[];
        break;
      case 'COPY': {
        const from = /--from=(\S+)/.exec(instruction.getTextContent())?.[1] ?? '';
        const [source, target] = args.filter((a) => !a.startsWith('--'));
        stage0.copies.push({ from, source: source!, target: target! });
        break;
      }
    }
  }
  return stage0;
}

const run = (cmd: string, args: string[], cwd = repo) => {
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${res.stderr}`);
  return res.stdout;
};

let listedDependencies: string[] | undefined;
const productionDependencies = () =>
  (listedDependencies ??= run('npm', [
    'ls',
    '--omit=dev',
    '--all',
    '--parseable',
    '--workspace=@bvdb/server',
  ]).split('\n'));

/** Lays out the runtime stage's files under `app`: hard links to the built tree, never copies. */
function layOut(stage: RuntimeStage, app: string): void {
  for (const copy of stage.copies) {
    const target = path.join(app, copy.target);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (copy.from === 'deps') {
      // The production dependencies of the server, as `npm ci --omit=dev --workspace=@bvdb/server`
      // installs them under this folder.
      const folder = path.join(repo, path.relative('/app', copy.source));
      const listed = productionDependencies()
        .filter((p) => p.startsWith(folder + path.sep))
        .sort();
      let last = '';
      for (const dir of listed) {
        if (last && dir.startsWith(last + path.sep)) continue; // inside one laid out already
        last = dir;
        const dest = path.join(target, path.relative(folder, dir));
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        if (fs.lstatSync(dir).isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(dir), dest);
        else run('cp', ['-al', dir, dest]);
      }
      continue;
    }
    expect(copy.from, `COPY ${copy.source}: from the build stage`).toBe('build');
    const source = path.join(repo, path.relative('/app', copy.source));
    expect(fs.existsSync(source), `${source} is built`).toBe(true);
    run('cp', ['-al', source, target]);
  }
}

test.describe('the container image runtime stage', () => {
  test.skip(
    !isRoot,
    'needs root to run the command as another user (setpriv); CI runs as root, so it runs there',
  );

  test('runs its CMD with its ENV as a non-root user on a read-only tree; /readyz answers', async () => {
    test.setTimeout(180_000);
    const stage = readRuntimeStage();
    expect(stage.user, 'the image runs as a non-root user').not.toMatch(/^(|root|0)$/);
    expect(stage.env).toMatchObject({ BVDB_SKIP_BUILD: '1', HOST: '0.0.0.0', NODE_ENV: 'production' });
    expect(stage.env.DATA_DIR).toBeTruthy();
    expect(stage.cmd[0]).toBe('node');

    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-runtime-'));
    fs.chmodSync(root, 0o755);
    const app = path.join(root, 'app');
    const data = path.join(root, 'data');
    fs.mkdirSync(app);
    fs.mkdirSync(data);
    // The image's user is `node` (uid 1000 of the base image); here `nobody`, who owns only the data folder.
    const nobody = { uid: 65534, gid: 65534 };
    fs.chownSync(data, nobody.uid, nobody.gid);
    try {
      layOut(stage, app);
      const bytes = Number(run('du', ['-sb', app]).split('\t')[0]);
      const asNobody = (args: string[]) =>
        spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', ...args], {
          cwd: app,
          encoding: 'utf8',
        });
      // Read-only for the process: it cannot write anywhere in the tree.
      expect(asNobody(['touch', path.join(app, 'packages/server/dist/probe')]).status).not.toBe(0);
      expect(asNobody(['touch', path.join(app, 'probe')]).status).not.toBe(0);

      const port = 3400 + Math.floor(Math.random() * 500);
      const started = Date.now();
      // The image's ENV, with the two values a container maps: its port and its data volume.
      const env = {
        PATH: process.env.PATH!,
        ...stage.env,
        PORT: String(port),
        DATA_DIR: data,
        LOG_LEVEL: 'info',
      };
      const child = spawn(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', '--', ...stage.cmd],
        {
          cwd: app,
          env,
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      let ready = false;
      while (!ready && Date.now() - started < 150_000 && child.exitCode === null) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      const coldStartMs = Date.now() - started;
      const health = ready
        ? ((await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { version: string })
        : undefined;
      child.kill('SIGTERM');
      const code = await new Promise<number | null>((resolve) =>
        child.exitCode !== null ? resolve(child.exitCode) : child.on('close', resolve),
      );
      expect(ready, `/readyz never answered 200; stderr: ${stderr}\nstdout: ${stdout}`).toBe(true);
      expect(health?.version).toMatch(/^\d+\.\d+\.\d+/);
      expect(code, stderr).toBe(0);
      // Every stdout line is JSON; the generated administrator password is in an owner-only file.
      const lines = stdout.split('\n').filter((l) => l.trim() !== '');
      for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      const passwordFile = path.join(data, 'admin-password.txt');
      expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
      const password = fs.readFileSync(passwordFile, 'utf8').split('\n')[1]!;
      expect(stdout).not.toContain(password);
      expect(stdout).toContain(passwordFile);
      const figures = `runtime file set ${(bytes / 1e6).toFixed(1)} MB; cold start to /readyz 200: ${(coldStartMs / 1000).toFixed(1)} s (first start: migrations, seed, demo data)`;
      console.log(`container runtime stage: ${figures}`);
      test.info().annotations.push({ type: 'figures', description: figures });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
