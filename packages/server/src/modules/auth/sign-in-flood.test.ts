import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginThrottles } from '../../db/schema.js';
import { admitHashing, HASHING_ADMITTED, hashingLoad } from '../../lib/password.js';
import { signInAs } from '../../test/sign-in.js';
import { memoryLoginThrottleOf } from './login-throttle.repository.js';
import { createTestApp, TEST_ADMIN, type TestContext } from '../../test/test-app.js';

// A built app in miniature: static files are read from disk through libuv's thread pool, the
// same pool scrypt runs on.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-flood-'));
const asset = `console.log(${JSON.stringify('x'.repeat(50_000))});`;
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>bvdb shell</title>');
fs.writeFileSync(path.join(dist, 'assets', 'index-flood1.js'), asset);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ demo: false, env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await work();
  return { ms: Math.round(performance.now() - start), result };
}

describe('a sign-in flood', () => {
  it('leaves static files and health checks fast: hashing is bounded, the rest answer 503', async () => {
    const flood = Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/users/sign_in',
          payload: { email: `flood${i}@example.org`, password: 'wrong-password-1' },
          remoteAddress: `10.200.${Math.floor(i / 250)}.${i % 250}`,
        }),
      ),
    );
    // Let the flood reach the hashing queue first (on PostgreSQL the throttle's statements come
    // before it, through a pool of 10 connections: not always within 100 ms on a loaded machine).
    const waitStart = performance.now();
    while (hashingLoad().running === 0 && performance.now() - waitStart < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(hashingLoad().running).toBeGreaterThan(0);
    const file = await timed(() => ctx.app.inject({ url: '/assets/index-flood1.js' }));
    const health = await timed(() => ctx.app.inject({ url: '/healthz' }));
    const answers = await timed(() => flood);

    console.log(
      `flood of 200 sign-ins: static file ${file.ms} ms, /healthz ${health.ms} ms, all sign-ins answered in ${answers.ms} ms after hashing began`,
    );
    expect(file.result.statusCode).toBe(200);
    expect(file.result.body).toBe(asset);
    expect(health.result.statusCode).toBe(200);
    expect(file.ms).toBeLessThan(1500);
    expect(health.ms).toBeLessThan(1500);

    const statuses = answers.result.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(HASHING_ADMITTED);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 503).length).toBe(200);
    const busy = answers.result.find((r) => r.statusCode === 503)!;
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.json<{ message: string }>().message).toMatch(/busy/);
    expect(hashingLoad()).toEqual({ admitted: 0, running: 0 });
  });

  it('refuses at once while the queue is full: before the body is read, nothing counted or checked', async () => {
    const me = await signInAs(ctx.app);
    await ctx.database.db.delete(loginThrottles);
    const counted = () => memoryLoginThrottleOf(ctx.database.db)?.size ?? 0;
    const countedBefore = counted();
    const held = Array.from({ length: HASHING_ADMITTED }, () => admitHashing());
    try {
      const signIn = (payload: string, headers: Record<string, string> = {}) =>
        ctx.app.inject({
          method: 'POST',
          url: '/users/sign_in',
          payload,
          headers: { 'content-type': 'application/json', ...headers },
        });
      // Not even JSON: a 503, not a 400, so the body was never parsed.
      const garbled = await signIn('{not json');
      expect(garbled.statusCode).toBe(503);
      expect(garbled.headers['retry-after']).toBe('5');
      expect(garbled.headers['content-type']).toMatch(/^application\/json/);
      expect(garbled.json()).toEqual({
        error: 'Service Unavailable',
        message: expect.stringMatching(/busy/),
        statusCode: 503,
      });
      // The right password: refused too, and no throttle counter was touched.
      expect((await signIn(JSON.stringify(TEST_ADMIN))).statusCode).toBe(503);
      expect(await ctx.database.db.select().from(loginThrottles)).toEqual([]);
      expect(counted()).toBe(countedBefore);

      // Changing the password: the access rules come first (401 anonymous, 403 without the CSRF
      // token), then the busy answer.
      const change = (headers: Record<string, string>) =>
        ctx.app.inject({
          method: 'PUT',
          url: '/users',
          payload: { current_password: TEST_ADMIN.password, password: 'another-password-1' },
          headers,
        });
      expect((await change({})).statusCode).toBe(401);
      expect((await change({ cookie: me.cookie })).statusCode).toBe(403);
      expect((await change(me.headers)).statusCode).toBe(503);
      expect(await ctx.database.db.select().from(loginThrottles)).toEqual([]);
      expect(counted()).toBe(countedBefore);
    } finally {
      for (const ticket of held) ticket.release();
    }
    expect(hashingLoad()).toEqual({ admitted: 0, running: 0 });
    const ok = await ctx.app.inject({ method: 'POST', url: '/users/sign_in', payload: TEST_ADMIN });
    expect(ok.statusCode).toBe(200);
  });
});
