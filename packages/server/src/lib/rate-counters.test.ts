import { describe, expect, it } from 'vitest';
import { RateCounters } from './rate-counters.js';

describe('rate counters', () => {
  it('counts in fixed windows that start with their first request', () => {
    const counters = new RateCounters();
    expect(counters.hit('read|a', 60_000, 1_000)).toMatchObject({ current: 1, ttl: 60_000 });
    expect(counters.hit('read|a', 60_000, 11_000)).toMatchObject({ current: 2, ttl: 50_000 });
    expect(counters.hit('read|b', 60_000, 11_000)).toMatchObject({ current: 1 });
    // The window is over: a new one starts.
    expect(counters.hit('read|a', 60_000, 61_000)).toMatchObject({ current: 1, ttl: 60_000 });
  });

  it('takes back a count, and serves the rate-limit plugin through its store interface', () => {
    const counters = new RateCounters();
    counters.hit('k', 60_000);
    counters.hit('k', 60_000);
    counters.takeBack('k');
    let seen: { current: number; ttl: number } | undefined;
    counters.incr('k', (_err, result) => (seen = result), 60_000);
    expect(seen?.current).toBe(2);
    expect(counters.child()).toBe(counters);
  });

  it('drops the least recently counted key beyond its size', () => {
    const counters = new RateCounters(2);
    counters.hit('a', 60_000, 0);
    counters.hit('b', 60_000, 0);
    counters.hit('a', 60_000, 0);
    counters.hit('c', 60_000, 0);
    // `b` was dropped: it starts again at 1; `a` kept its count.
    expect(counters.hit('b', 60_000, 0).current).toBe(1);
    expect(counters.hit('c', 60_000, 0).current).toBe(2);
  });

  it('keeps a key counted in a run as the newest, so a newcomer drops the other one', () => {
    const counters = new RateCounters(2);
    counters.hit('a', 60_000, 0);
    counters.hit('b', 60_000, 0);
    counters.hit('a', 60_000, 0);
    counters.hit('a', 60_000, 0); // a run of one client: already the newest
    counters.hit('c', 60_000, 0);
    expect(counters.hit('a', 60_000, 0).current).toBe(4);
    expect(counters.hit('b', 60_000, 0).current).toBe(1);
  });
});
