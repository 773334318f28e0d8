import { describe, expect, it } from 'vitest';
import { useTestApp } from './test/test-app.js';

const ctx = useTestApp({ demo: false, env: { RATE_LIMIT_PER_MINUTE: '3' } });

describe('rate limit', () => {
  it('answers 429 with Retry-After past the documented limit, per client IP', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await ctx.app.inject({ url: '/api/meta', remoteAddress: '10.1.1.1' })).statusCode).toBe(200);
    }
    const limited = await ctx.app.inject({ url: '/api/meta', remoteAddress: '10.1.1.1' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json<{ message: string }>().message).toBeTruthy();
    expect((await ctx.app.inject({ url: '/api/meta', remoteAddress: '10.1.1.2' })).statusCode).toBe(200);
  });
});
