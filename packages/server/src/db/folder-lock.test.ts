import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { acquireFolderLock, FolderLockedError, processStartTime, type LockOwner } from './folder-lock.js';

const require = createRequire(import.meta.url);
const tsxLoader = require.resolve('tsx');
const lockModule = fileURLToPath(new URL('./folder-lock.ts', import.meta.url));
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-lock-'));
let n = 0;
function freshFolder(): string {
  const folder = path.join(root, String(++n));
  fs.mkdirSync(folder);
  return folder;
}
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A separate Node process that takes the lock through this module and holds it until killed. */
async function holdInChild(folder: string): Promise<ChildProcessWithoutNullStreams> {
  const script = `
    import { acquireFolderLock } from ${JSON.stringify(lockModule)};
    await acquireFolderLock(${JSON.stringify(folder)});
    console.log('held');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script]);
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
    child.on('exit', (code) => reject(new Error(`the child exited (${code}): ${err}`)));
  });
  return child;
}

/** A separate Node process that tries the lock once: 'won' (and holds it until killed) or 'lost'. */
async function tryInChild(folder: string): Promise<string> {
  const script = `
    import { acquireFolderLock } from ${JSON.stringify(lockModule)};
    acquireFolderLock(${JSON.stringify(folder)}).then(
      () => { console.log('won'); setInterval(() => {}, 1000); },
      (e) => { console.log(e.name === 'Error' && /in use/.test(e.message) ? 'lost' : 'error ' + e.message); process.exit(0); });`;
  const child = spawn(process.execPath, ['--import', tsxLoader, '--input-type=module', '-e', script]);
  children.push(child);
  return new Promise<string>((resolve) => {
    child.stdout.on('data', (d: Buffer) => resolve(d.toString().trim()));
    child.on('exit', () => resolve('exited'));
  });
}

function writeRecord(folder: string, owner: Partial<LockOwner>, ageSeconds = 0): void {
  const file = path.join(folder, '.bvdb.lock');
  fs.writeFileSync(file, JSON.stringify(owner));
  const t = new Date(Date.now() - ageSeconds * 1000);
  fs.utimesSync(file, t, t);
}

function me(): LockOwner {
  return {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    bootId: fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(),
    pidNamespace: fs.readlinkSync('/proc/self/ns/pid'),
    hostname: os.hostname(),
    since: new Date().toISOString(),
  };
}

describe('data folder lock', () => {
  it('refuses a second holder while the first holds it, and frees it on release', async () => {
    const folder = freshFolder();
    const first = await acquireFolderLock(folder);
    await expect(acquireFolderLock(folder)).rejects.toBeInstanceOf(FolderLockedError);
    await first.release();
    const again = await acquireFolderLock(folder);
    await again.release();
    expect(fs.existsSync(path.join(folder, '.bvdb.lock'))).toBe(false);
  });

  it('refuses while another live process holds it, naming that process', async () => {
    const folder = freshFolder();
    const child = await holdInChild(folder);
    const err = await acquireFolderLock(folder).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FolderLockedError);
    expect((err as Error).message).toContain(`pid ${child.pid}`);
    expect((err as Error).message).toMatch(/since \d{4}-\d\d-\d\dT/);
  });

  it('is taken at once after its holder was killed with SIGKILL', async () => {
    const folder = freshFolder();
    const child = await holdInChild(folder);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    const started = performance.now();
    const lock = await acquireFolderLock(folder);
    const ms = performance.now() - started;
    await lock.release();
    expect(ms).toBeLessThan(1000);
  });

  it('is taken at once when its holder was killed but is left a zombie (its parent never reaps it)', async () => {
    const folder = freshFolder();
    // The holder's parent is a shell that execs into `sleep`, which never waits for its children:
    // once killed, the holder stays in /proc as a zombie with its pid and start time.
    const script = `import { acquireFolderLock } from ${JSON.stringify(lockModule)};
      await acquireFolderLock(${JSON.stringify(folder)}); console.log('held'); setInterval(() => {}, 1000);`;
    const shell = spawn('sh', [
      '-c',
      `"$0" --import "$1" --input-type=module -e "$2" & echo "pid $!"; exec sleep 60`,
      process.execPath,
      tsxLoader,
      script,
    ]);
    children.push(shell);
    let out = '';
    await new Promise<void>((resolve, reject) => {
      shell.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('held')) resolve();
      });
      shell.on('exit', (code) => reject(new Error(`the shell exited (${code})`)));
    });
    const holder = Number(/pid (\d+)/.exec(out)![1]);
    process.kill(holder, 'SIGKILL');
    const stateOf = () => fs.readFileSync(`/proc/${holder}/stat`, 'utf8').split(') ')[1]!.split(' ')[0];
    for (let i = 0; i < 100 && stateOf() !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(stateOf()).toBe('Z');
    const started = performance.now();
    const lock = await acquireFolderLock(folder);
    const ms = performance.now() - started;
    await lock.release();
    expect(ms).toBeLessThan(1000);
  });

  it('treats a record with a live pid but another start time as stale (a reused pid)', async () => {
    const folder = freshFolder();
    const owner = me();
    writeRecord(folder, { ...owner, startTime: String(Number(owner.startTime) + 1) });
    const lock = await acquireFolderLock(folder);
    await lock.release();
  });

  it('judges a record from another boot by its heartbeat', async () => {
    const folder = freshFolder();
    writeRecord(folder, { ...me(), bootId: '00000000-0000-0000-0000-000000000000', hostname: os.hostname() });
    // Another boot cannot be checked through /proc: its heartbeat is what matters, and it is fresh.
    await expect(acquireFolderLock(folder, { waitMs: 0 })).rejects.toThrow(/pid \d+/);
    writeRecord(folder, { ...me(), bootId: '00000000-0000-0000-0000-000000000000' }, 60);
    const lock = await acquireFolderLock(folder, { waitMs: 0 });
    await lock.release();
  });

  it('relies on the heartbeat for an owner in another container: waits for it to go stale', async () => {
    const folder = freshFolder();
    writeRecord(folder, { ...me(), pid: 1, pidNamespace: 'pid:[1]' }, 9);
    const started = performance.now();
    const lock = await acquireFolderLock(folder, { waitMs: 5000 });
    const ms = performance.now() - started;
    await lock.release();
    // Untouched for 9 s, stale after 10 s: taken about a second later, not at once and not never.
    expect(ms).toBeGreaterThan(500);
    expect(ms).toBeLessThan(3000);
  });

  it('takes over the older version’s abandoned lock directory, but not a fresh one', async () => {
    const folder = freshFolder();
    const dir = path.join(folder, '.bvdb.lock');
    fs.mkdirSync(dir);
    await expect(acquireFolderLock(folder)).rejects.toBeInstanceOf(FolderLockedError);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(dir, old, old);
    const lock = await acquireFolderLock(folder);
    await lock.release();
  });

  it('lets exactly one of several processes starting together take a stale lock', async () => {
    const folder = freshFolder();
    writeRecord(folder, { ...me(), startTime: '1' });
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => tryInChild(folder)));
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'lost')).toHaveLength(3);
  });
});
