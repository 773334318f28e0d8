import { describe, expect, it } from 'vitest';
import { preferredEncoding, ResponseCache } from './response-cache.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('response cache', () => {
  it('builds a missing answer once while the others wait for it', async () => {
    const cache = new ResponseCache();
    let builds = 0;
    const build = async () => {
      builds++;
      await tick();
      return { body: 'answer' };
    };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => cache.getOrBuild('k', ['datasets'], build)),
    );
    expect(builds).toBe(1);
    expect(new Set(answers.map((a) => a.entry))).toHaveProperty('size', 1);
    await cache.getOrBuild('k', ['datasets'], build);
    expect(builds).toBe(1);
  });

  it('lets go only of the answers that read what a write changed', async () => {
    const cache = new ResponseCache();
    cache.set('lookups', 'l', {}, ['lookups']);
    cache.set('everything', 'e');
    cache.invalidate(['references']);
    expect(cache.get('lookups')).toBeDefined();
    expect(cache.get('everything')).toBeUndefined();
    cache.invalidate([]);
    expect(cache.get('lookups')).toBeDefined();
    cache.invalidate();
    expect(cache.get('lookups')).toBeUndefined();
  });

  it('never keeps an answer built across a write as current', async () => {
    const cache = new ResponseCache();
    let builds = 0;
    const first = cache.getOrBuild('k', ['datasets'], async () => {
      builds++;
      await tick();
      return { body: 'old' };
    });
    cache.invalidate(['datasets']); // committed while the first build ran
    const second = cache.getOrBuild('k', ['datasets'], async () => {
      builds++;
      return { body: 'new' };
    });
    expect((await first).entry.body).toBe('old');
    expect((await second).entry.body).toBe('new');
    expect(builds).toBe(2);
    expect(cache.get('k')?.body).toBe('new');
  });

  it('shares a failed build with its waiters, then tries again', async () => {
    const cache = new ResponseCache();
    const failing = async () => {
      await tick();
      throw new Error('boom');
    };
    const results = await Promise.allSettled([
      cache.getOrBuild('k', ['metas'], failing),
      cache.getOrBuild('k', ['metas'], failing),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((await cache.getOrBuild('k', ['metas'], async () => ({ body: 'ok' }))).entry.body).toBe('ok');
  });

  it('does not keep an answer marked not to keep, but gives it to every waiter', async () => {
    const cache = new ResponseCache();
    const got = await cache.getOrBuild('k', ['metas'], async () => ({ body: 'partial', keep: false }));
    expect(got).toMatchObject({ kept: false });
    expect(cache.get('k')).toBeUndefined();
  });

  it('follows the shared counters of other processes, scope by scope, and never reuses a stamp', () => {
    const cache = new ResponseCache();
    const shared = { analytes: 1, references: 1, datasets: 1, metas: 1, lookups: 1 };
    cache.observe(shared);
    cache.set('lookups', 'l', {}, ['lookups']);
    cache.set('everything', 'e');
    cache.observe({ ...shared });
    expect(cache.get('everything')).toBeDefined();
    cache.observe({ ...shared, metas: 2 });
    expect(cache.get('everything')).toBeUndefined();
    expect(cache.get('lookups')).toBeDefined();
    const stamp = cache.stampOf(['metas']);
    cache.observe({ ...shared, metas: 1 }); // a restored backup: counters went back
    expect(cache.stampOf(['metas'])).toBeGreaterThan(stamp);
  });

  it('prefers br for large answers and gzip for small ones, within what the client takes', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('gzip, deflate, br', 200_000)).toBe('br');
    expect(preferredEncoding('gzip, deflate, br', 4_000)).toBe('gzip');
    expect(preferredEncoding('br', 4_000)).toBe('br');
    expect(preferredEncoding('br, gzip;q=0', 4_000)).toBe('br');
    expect(preferredEncoding('identity', 4_000)).toBeNull();
  });
});
