import type { ThrottleKey, ThrottlePolicy } from './login-throttle.types.js';

interface Counter {
  failures: number;
  windowStart: number;
  lockedUntil: number | null;
}

/** Sweep the forgotten counters once this many attempts were counted since the last sweep. */
const SWEEP_EVERY = 1_000;

/**
 * The sign-in throttle's counters in this process's memory, for the embedded database
 * (docs/decisions/061-sign-in-throttle-in-memory-and-first-pages.md): PGlite's data folder is opened
 * by one process only, so this process sees every attempt, and a counted attempt costs no commit on
 * the event loop (16–20 ms of PGlite each under a flood). The same rules as `admitAttempt` in
 * login-throttle.repository.ts, which PostgreSQL keeps for many processes: all keys of an attempt
 * are counted together or none is; any locked key refuses the attempt; the counter that reaches its
 * limit locks the key for `baseLockMs`, doubling with each further counted attempt, up to
 * `maxLockMs`; a run is forgotten `windowMs` after its start or after its last lock ended.
 * JavaScript runs one attempt's check and count without a pause, so concurrent attempts cannot both
 * pass the last place. A restart forgets the counters (a lock is at most an hour; a restart takes
 * an operator, not a caller).
 */
export class MemoryLoginThrottle {
  private readonly counters = new Map<string, Counter>();
  private countedSinceSweep = 0;

  admit(keys: ThrottleKey[], policy: ThrottlePolicy, now: Date): boolean {
    const t = now.getTime();
    for (const { key } of keys) {
      const c = this.counters.get(key);
      if (c?.lockedUntil != null && c.lockedUntil > t) return false;
    }
    const windowStart = t - policy.windowMs;
    for (const { key, limit } of keys) {
      const c = this.counters.get(key);
      if (!c) {
        this.counters.set(key, { failures: 1, windowStart: t, lockedUntil: null });
        continue;
      }
      const forgotten = (c.lockedUntil ?? c.windowStart) < windowStart;
      const next = forgotten ? 1 : c.failures + 1;
      c.failures = next;
      if (forgotten) c.windowStart = t;
      c.lockedUntil =
        next >= limit ? t + Math.min(policy.baseLockMs * 2 ** (next - limit), policy.maxLockMs) : null;
    }
    if (++this.countedSinceSweep >= SWEEP_EVERY) this.sweep(windowStart);
    return true;
  }

  /** The latest moment any of these keys stays locked until (null when none was ever locked). */
  lockedUntil(keys: string[]): Date | null {
    let latest: number | null = null;
    for (const key of keys) {
      const until = this.counters.get(key)?.lockedUntil;
      if (until != null && (latest === null || until > latest)) latest = until;
    }
    return latest === null ? null : new Date(latest);
  }

  forget(key: string): void {
    this.counters.delete(key);
  }

  uncount({ key, limit }: ThrottleKey): void {
    const c = this.counters.get(key);
    if (!c) return;
    if (c.failures - 1 < limit) c.lockedUntil = null;
    c.failures = Math.max(c.failures - 1, 0);
  }

  /** Ends every lock of the keys `match` accepts, as if the wait had passed (tests, operators). */
  endLocks(match: (key: string) => boolean, now = Date.now()): void {
    for (const [key, c] of this.counters) if (match(key) && c.lockedUntil != null) c.lockedUntil = now - 1000;
  }

  /** How many keys have a counter (a flood of unknown e-mails must not grow it without end). */
  get size(): number {
    return this.counters.size;
  }

  /** A forgotten counter behaves as no counter: dropping it keeps memory bounded by the window. */
  private sweep(windowStart: number): void {
    this.countedSinceSweep = 0;
    for (const [key, c] of this.counters)
      if ((c.lockedUntil ?? c.windowStart) < windowStart) this.counters.delete(key);
  }
}
