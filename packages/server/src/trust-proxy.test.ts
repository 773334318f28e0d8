import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { seedDatabase } from './seed/seed.js';
import { createTestDatabase, TEST_ADMIN, testConfig } from './test/test-app.js';

const PROXY = '127.0.0.1';

/** An app with a tiny route that answers the address it believes the client has. */
async function appWith(env: Record<string, string>) {
  const { database, drop } = await createTestDatabase();
  await seedDatabase(database.db, {
    demo: false,
    adminEmail: TEST_ADMIN.email,
    adminPassword: TEST_ADMIN.password,
  });
  const app = await buildApp({ config: testConfig(env), database });
  app.get('/api/test/client-ip', (request) => ({ ip: request.ip }));
  await app.ready();
  return { app, close: async () => (await app.close(), await drop()) };
}

function request(
  app: FastifyInstance,
  remoteAddress: string,
  forwardedFor?: string,
  url = '/api/test/client-ip',
) {
  return app.inject({ url, remoteAddress, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
}

async function clientIp(app: FastifyInstance, remoteAddress: string, forwardedFor?: string): Promise<string> {
  return (await request(app, remoteAddress, forwardedFor)).json<{ ip: string }>().ip;
}

describe('TRUST_PROXY setting', () => {
  it('takes false, a number of hops or a list of addresses and ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses `true`, which trusted any client’s own header, and anything that is not an address', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: `true` would trust/);
    expect(() => loadConfig({ TRUST_PROXY: 'TRUE' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY.*"yes"/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '127.0.0.1,proxy.example' })).toThrow(/"proxy.example"/);
  });
});

describe('behind one proxy (TRUST_PROXY=1)', () => {
  let ctx: Awaited<ReturnType<typeof appWith>>;
  beforeAll(async () => {
    ctx = await appWith({ TRUST_PROXY: '1', RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(async () => ctx.close());

  it('takes the address the proxy appended, not one the client wrote', async () => {
    expect(await clientIp(ctx.app, PROXY, 'spoofed-by-client, 203.0.113.7')).toBe('203.0.113.7');
    expect(await clientIp(ctx.app, PROXY, '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7');
    expect(await clientIp(ctx.app, PROXY, '203.0.113.7')).toBe('203.0.113.7');
    expect(await clientIp(ctx.app, PROXY)).toBe(PROXY);
  });

  it("writes the Atom feeds' links under the origin the proxy forwarded (issue 42.9)", async () => {
    const res = await ctx.app.inject({
      url: '/changes.atom',
      remoteAddress: PROXY,
      headers: {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'bv.example.net',
        'x-forwarded-for': '203.0.113.9',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(
      '<link rel="self" type="application/atom+xml" href="https://bv.example.net/changes.atom"/>',
    );
  });

  it('rate-limits the real client however it varies its own X-Forwarded-For', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      codes.push((await request(ctx.app, PROXY, `10.9.9.${i}, 203.0.113.50`, '/api/meta')).statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    // Another client behind the same proxy has its own allowance.
    expect((await request(ctx.app, PROXY, '203.0.113.51', '/api/meta')).statusCode).toBe(200);
  });

  it('locks sign-in for the real client however it varies its own X-Forwarded-For', async () => {
    const fresh = await appWith({ TRUST_PROXY: '1' });
    try {
      const signIn = (email: string, password: string, forwardedFor: string) =>
        fresh.app.inject({
          method: 'POST',
          url: '/users/sign_in',
          remoteAddress: PROXY,
          headers: { 'x-forwarded-for': forwardedFor },
          payload: { email, password },
        });
      // The account+address throttle (decision 018) keys on the proxy-appended address.
      for (let i = 0; i < 5; i++) {
        const res = await signIn(TEST_ADMIN.email, `wrong-password-${i}`, `10.8.0.${i}, 203.0.113.60`);
        expect(res.statusCode).toBe(401);
      }
      const locked = await signIn(TEST_ADMIN.email, TEST_ADMIN.password, '10.8.1.1, 203.0.113.60');
      expect(locked.statusCode).toBe(429);
      const other = await signIn(TEST_ADMIN.email, TEST_ADMIN.password, '203.0.113.61');
      expect(other.statusCode).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

describe('behind listed proxies (TRUST_PROXY=127.0.0.1,10.0.0.0/8)', () => {
  let ctx: Awaited<ReturnType<typeof appWith>>;
  beforeAll(async () => {
    ctx = await appWith({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' });
  });
  afterAll(async () => ctx.close());

  it('walks back through the listed proxies to the first address that is not one', async () => {
    expect(await clientIp(ctx.app, PROXY, 'spoofed, 203.0.113.7')).toBe('203.0.113.7');
    expect(await clientIp(ctx.app, PROXY, 'spoofed, 203.0.113.7, 10.1.2.3')).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from an address that is not a listed proxy', async () => {
    expect(await clientIp(ctx.app, '198.51.100.9', 'spoofed, 203.0.113.7')).toBe('198.51.100.9');
  });
});

describe('without a proxy (the default)', () => {
  let ctx: Awaited<ReturnType<typeof appWith>>;
  beforeAll(async () => {
    ctx = await appWith({});
  });
  afterAll(async () => ctx.close());

  it('ignores X-Forwarded-For entirely', async () => {
    expect(await clientIp(ctx.app, '198.51.100.9', '203.0.113.7')).toBe('198.51.100.9');
  });
});
