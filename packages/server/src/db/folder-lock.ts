import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface FolderLock {
  release(): Promise<void>;
}

/** Who holds a data folder: enough to tell whether that very process is still running. */
export interface LockOwner {
  pid: number;
  /** Start time of the process in clock ticks since boot (field 22 of /proc/<pid>/stat). */
  startTime: string | null;
  /** /proc/sys/kernel/random/boot_id: a pid and a start time mean nothing after a reboot. */
  bootId: string | null;
  /** The pid namespace (/proc/self/ns/pid): a pid means nothing in another container. */
  pidNamespace: string | null;
  hostname: string;
  /** When the lock was taken (ISO 8601). */
  since: string;
}

export class FolderLockedError extends Error {
  constructor(
    public readonly folder: string,
    public readonly owner?: LockOwner,
  ) {
    const by = owner
      ? ` (pid ${owner.pid} on ${owner.hostname}, since ${owner.since})`
      : ' (a bvdb version with the older lock)';
    super(
      `The data folder ${folder} is in use by another bvdb process${by}. ` +
        'Stop that process, or start this one with another DATA_DIR or a DATABASE_URL.',
    );
  }
}

/** The holder touches its record this often, for the starts that cannot check its process. */
const HEARTBEAT_MS = 2_000;
/** A record not touched for this long belongs to a dead process (used only when /proc cannot tell). */
export const STALE_MS = 10_000;
export interface AcquireOptions {
  /** How long to wait for a record that cannot be checked to go stale or be released. */
  waitMs?: number;
}

function readProc(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Field 22 of /proc/<pid>/stat, or null when no such process runs. A zombie (killed but not yet
 * reaped by its parent, e.g. under a container's pid 1 that never waits) keeps its /proc entry and
 * start time but holds nothing: null too. The command name (field 2) may hold spaces and parentheses.
 */
export function processStartTime(pid: number): string | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields[0] === 'X') return null; // fields[0] is field 3 (state)
  return fields[19] ?? null;
}

function currentOwner(): LockOwner {
  let pidNamespace: string | null = null;
  try {
    pidNamespace = fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    // not Linux
  }
  return {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    bootId: readProc('/proc/sys/kernel/random/boot_id')?.trim() ?? null,
    pidNamespace,
    hostname: os.hostname(),
    since: new Date().toISOString(),
  };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.pid !== 'number' || typeof o.hostname !== 'string' || typeof o.since !== 'string') return;
    return {
      pid: o.pid,
      startTime: o.startTime ?? null,
      bootId: o.bootId ?? null,
      pidNamespace: o.pidNamespace ?? null,
      hostname: o.hostname,
      since: o.since,
    };
  } catch {
    return undefined;
  }
}

type Liveness = 'alive' | 'dead' | 'unknown';

/**
 * Is the recorded process still running? On the same machine, boot and pid namespace that is
 * certain: the pid must exist AND have the recorded start time (a reused pid, such as a restarted
 * container's pid 1, has another). Elsewhere (another container sharing the volume, another host)
 * it cannot be checked: 'unknown', and the record's heartbeat decides.
 */
export function ownerLiveness(owner: LockOwner, me: LockOwner = currentOwner()): Liveness {
  if (
    owner.hostname !== me.hostname ||
    owner.bootId !== me.bootId ||
    owner.pidNamespace !== me.pidNamespace
  ) {
    return 'unknown';
  }
  if (me.startTime !== null && owner.startTime !== null) {
    const now = processStartTime(owner.pid);
    return now !== null && now === owner.startTime ? 'alive' : 'dead';
  }
  // No /proc (macOS): the pid alone, erring on the side of alive.
  try {
    process.kill(owner.pid, 0);
    return 'alive';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH' ? 'dead' : 'alive';
  }
}

function ageMs(file: string): number {
  return Date.now() - fs.statSync(file).mtimeMs;
}

/** Creates `file` with `content` only if it does not exist, never leaving a half-written file. */
function createExclusive(file: string, content: string): boolean {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o644 });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function readIfExists(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') return '';
    throw err;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Removes a stale lock record, but only if it still holds `staleText`. Two starts may find the same
 * stale record: the takeover runs under a second, short-lived record (`.takeover`) so that one of
 * them cannot delete the lock the other has just taken.
 */
function removeStale(lockFile: string, staleText: string, me: string): boolean {
  const guard = `${lockFile}.takeover`;
  if (!createExclusive(guard, me)) {
    const text = readIfExists(guard);
    const holder = text ? parseOwner(text) : undefined;
    // A start that died inside the takeover (a few microseconds) leaves its guard behind.
    const dead = holder ? ownerLiveness(holder) === 'dead' : text !== null && ageMs(guard) > STALE_MS;
    if (dead && readIfExists(guard) === text) fs.rmSync(guard, { force: true });
    return false;
  }
  try {
    if (readIfExists(lockFile) !== staleText) return false;
    fs.rmSync(lockFile, { recursive: true, force: true });
    return true;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

/**
 * PGlite has no locking between processes, so two servers on one folder would corrupt it. The lock
 * is a record of its owner (pid, process start time, boot id, pid namespace, host) created
 * atomically in the folder. A start that finds the record checks whether that very process still
 * runs: a crashed (`kill -9`) owner's folder is taken over at once. Where the owner cannot be
 * checked (another container or host sharing the folder) the owner's heartbeat decides: a record
 * untouched for STALE_MS is stale, and the start waits for that instead of failing. The
 * `.bvdb.lock` name is the one the older lock (a directory) used, so both versions exclude each other.
 */
export async function acquireFolderLock(folder: string, opts: AcquireOptions = {}): Promise<FolderLock> {
  const marker = path.join(folder, '.bvdb');
  if (!fs.existsSync(marker)) fs.writeFileSync(marker, 'bvdb data folder\n');
  const lockFile = path.join(folder, '.bvdb.lock');
  const owner = currentOwner();
  const mine = `${JSON.stringify(owner)}\n`;
  const deadline = Date.now() + (opts.waitMs ?? STALE_MS + 2 * HEARTBEAT_MS);
  let told = false;

  for (;;) {
    if (createExclusive(lockFile, mine)) break;
    const text = readIfExists(lockFile);
    if (text === null) continue; // released meanwhile
    const holder = parseOwner(text);
    let stale: boolean;
    if (holder) {
      const liveness = ownerLiveness(holder, owner);
      if (liveness === 'alive') throw new FolderLockedError(folder, holder);
      stale = liveness === 'dead' || ageMs(lockFile) > STALE_MS;
      if (!stale && Date.now() > deadline) throw new FolderLockedError(folder, holder);
      if (!stale && !told) {
        told = true;
        console.error(
          `bvdb: the data folder ${folder} was locked by pid ${holder.pid} on ${holder.hostname} ` +
            '(another container or host, so its process cannot be checked): waiting for its lock to be released or to go stale',
        );
      }
    } else {
      // The older version's lock directory (refreshed every 5 s, stale after 15 s), or a damaged file.
      stale = ageMs(lockFile) > 15_000;
      if (!stale) throw new FolderLockedError(folder);
    }
    if (!stale || !removeStale(lockFile, text, mine)) await sleep(stale ? 20 : 500);
  }

  // Touch the record so that starts which cannot check this process see it is alive, and notice if
  // someone took the folder anyway: continuing would risk two writers.
  const heartbeat = setInterval(() => {
    try {
      if (readIfExists(lockFile) !== mine) throw new Error('the lock record was replaced or removed');
      const now = new Date();
      fs.utimesSync(lockFile, now, now);
    } catch (err) {
      console.error(`bvdb: lost the lock on ${folder}: ${(err as Error).message}`);
      process.exit(75);
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  let released = false;
  return {
    release: () => {
      if (released) return Promise.resolve();
      released = true;
      clearInterval(heartbeat);
      try {
        if (readIfExists(lockFile) === mine) fs.rmSync(lockFile, { force: true });
      } catch {
        // the folder is gone: nothing to release
      }
      return Promise.resolve();
    },
  };
}
