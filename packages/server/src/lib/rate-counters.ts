import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';

interface Window {
  current: number;
  ttl: number;
  iterationStartMs: number;
}

/**
 * The per-address counters of the rate limits (plugins/rate-limits.ts): one store shared by
 * @fastify/rate-limit's hook and the fast read path (plugins/fast-reads.ts), so a request answered
 * either way is counted once, in the same one-minute window. The same fixed windows as the
 * plugin's own LocalStore (the first request of a window starts it; the least recently counted
 * key is dropped beyond `maxKeys`), without its continue-exceeding and backoff modes, which the
 * server does not use.
 */
export class RateCounters {
  private readonly windows = new Map<string, Window>();
  /** The key counted last: already the map's newest, so counting it again need not move it. */
  private newest: string | undefined;

  constructor(private readonly maxKeys = 5000) {}

  /** Counts one request of `key` in a window of `timeWindow` ms; the count and the time left. */
  hit(key: string, timeWindow: number, now = Date.now()): Window {
    let window = this.windows.get(key);
    const kept = window !== undefined;
    if (!window) {
      window = { current: 1, ttl: timeWindow, iterationStartMs: now };
    } else if (window.iterationStartMs + timeWindow <= now) {
      window.current = 1;
      window.ttl = timeWindow;
      window.iterationStartMs = now;
    } else {
      window.current += 1;
      window.ttl = timeWindow - (now - window.iterationStartMs);
    }
    // Most recently counted last, so the first key is the one to drop. A run of one client's
    // requests (a script's pass) finds its key already last: no delete and insert per request.
    if (!kept || key !== this.newest) {
      this.windows.delete(key);
      this.windows.set(key, window);
      this.newest = key;
    }
    if (this.windows.size > this.maxKeys) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    return window;
  }

  /** The window of `key` as last counted (no count), or undefined. */
  peek(key: string): Window | undefined {
    return this.windows.get(key);
  }

  /** Takes back one count of `key` (a request the fast path counted and then left to the full path). */
  takeBack(key: string): void {
    const window = this.windows.get(key);
    if (window && window.current > 0) window.current -= 1;
  }

  /** @fastify/rate-limit's store interface. */
  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void {
    const { current, ttl } = this.hit(key, timeWindow);
    callback(null, { current, ttl });
  }

  /** Route-specific limits would get a store of their own; every class here shares the one store. */
  child(): RateCounters {
    return this;
  }
}

/** @fastify/rate-limit constructs its store from a class: this one hands it `counters`. */
export function rateLimitStoreOf(counters: RateCounters): FastifyRateLimitStoreCtor {
  return function SharedCounters() {
    return counters;
  } as unknown as FastifyRateLimitStoreCtor;
}
