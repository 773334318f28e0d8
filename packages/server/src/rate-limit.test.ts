import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { limitsOf } from './plugins/rate-limits.js';
import { loadConfig } from './config.js';
import { useTestApp } from './test/test-app.js';

const ctx = useTestApp({
  demo: false,
  env: {
    RATE_LIMIT_PER_MINUTE: '3',
    RATE_LIMIT_HEAVY_PER_MINUTE: '2',
    RATE_LIMIT_WRITE_PER_MINUTE: '2',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '2',
  },
});

const signIn = (remoteAddress: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/users/sign_in',
    remoteAddress,
    payload: { email: 'nobody@example.org', password: 'wrong-password-1' },
  });

describe('rate limits by cost class', () => {
  it('answers 429 with Retry-After past the documented limit, per client IP', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await ctx.app.inject({ url: '/api/meta', remoteAddress: '10.1.1.1' })).statusCode).toBe(200);
    }
    const limited = await ctx.app.inject({ url: '/api/meta', remoteAddress: '10.1.1.1' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json<{ message: string }>().message).toMatch(/at most 3 a minute/);
    expect((await ctx.app.inject({ url: '/api/meta', remoteAddress: '10.1.1.2' })).statusCode).toBe(200);
  });

  it('sends the allowance in exactly the headers docs/api.md names (x-ratelimit-*) once half is used, and on a 429 (decision 089)', async () => {
    const api = fs.readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    const documented = [...api.matchAll(/`([A-Za-z-]*ratelimit[A-Za-z-]*)`/gi)].map((m) => m[1]!);
    expect(documented).toEqual(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
    const ip = '10.9.9.9';
    const sent = (r: Awaited<ReturnType<typeof ctx.app.inject>>) =>
      Object.keys(r.headers).filter((h) => /ratelimit/i.test(h));
    // Far from the limit (2 of 3 left): none of them.
    const far = await ctx.app.inject({ url: '/api/meta', remoteAddress: ip });
    expect(far.statusCode).toBe(200);
    expect(sent(far)).toEqual([]);
    // Near it (1 of 3 left): all three.
    const near = await ctx.app.inject({ url: '/api/meta', remoteAddress: ip });
    expect(sent(near).sort()).toEqual(documented);
    expect(near.headers['x-ratelimit-limit']).toBe('3');
    expect(near.headers['x-ratelimit-remaining']).toBe('1');
    expect(Number(near.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    await ctx.app.inject({ url: '/api/meta', remoteAddress: ip });
    const limited = await ctx.app.inject({ url: '/api/meta', remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(sent(limited).sort()).toEqual(documented);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // An error names its request (decision 089).
    expect(limited.headers['x-request-id']).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
  });

  it('counts each class apart: spent sign-ins leave reads alone, and the reverse', async () => {
    const ip = '10.2.2.2';
    expect((await signIn(ip)).statusCode).not.toBe(429);
    expect((await signIn(ip)).statusCode).not.toBe(429);
    const third = await signIn(ip);
    expect(third.statusCode).toBe(429);
    expect(third.json<{ message: string }>().message).toMatch(/sign-in attempts.*at most 2 a minute/);
    expect((await ctx.app.inject({ url: '/api/meta', remoteAddress: ip })).statusCode).toBe(200);
  });

  it('limits the anonymous subscribe as a write', async () => {
    const ip = '10.3.3.3';
    const subscribe = (n: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/mailing_list/subscribe',
        remoteAddress: ip,
        payload: { email: `reader${n}@example.org` },
      });
    expect((await subscribe(1)).statusCode).not.toBe(429);
    expect((await subscribe(2)).statusCode).not.toBe(429);
    expect((await subscribe(3)).statusCode).toBe(429);
  });

  it('limits exports as heavy work and pages and unknown paths as reads', async () => {
    const ip = '10.4.4.4';
    for (let i = 0; i < 2; i++) {
      const res = await ctx.app.inject({ url: '/export/bv_database.csv', remoteAddress: ip });
      expect(res.statusCode).toBe(200);
    }
    expect((await ctx.app.inject({ url: '/export/bv_database.csv', remoteAddress: ip })).statusCode).toBe(
      429,
    );
    const page = '/no/such/page';
    for (let i = 0; i < 3; i++) {
      expect((await ctx.app.inject({ url: page, remoteAddress: ip })).statusCode).toBe(404);
    }
    expect((await ctx.app.inject({ url: page, remoteAddress: ip })).statusCode).toBe(429);
  });

  it('defaults let a bulk consumer page the whole catalogue at 100× demo size from one address', () => {
    const limits = limitsOf(loadConfig({}));
    expect(limits.read).toBeGreaterThanOrEqual(20_000);
    expect(limits['sign-in']).toBeLessThanOrEqual(20);
    expect(limits.write).toBeLessThanOrEqual(200);
  });
});
