import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginThrottles } from '../../db/schema.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { signInAs } from '../../test/sign-in.js';
import { useTestApp } from '../../test/test-app.js';
import { SIGN_IN_THROTTLE } from './auth.service.js';
import { memoryLoginThrottleOf } from './login-throttle.repository.js';
import { createUser } from './users.service.js';

const ctx = useTestApp({ demo: false });
const PASSWORD = 'right-password-1';

/** A fresh account per test, so the counters of one test never touch another. */
let accounts = 0;
async function newAccount(): Promise<string> {
  const email = `owner${++accounts}@example.org`;
  await createUser(serviceDeps(ctx.app), { email, name: null, role: 'curator', password: PASSWORD });
  return email;
}

const attempt = (email: string, password: string, remoteAddress: string) =>
  ctx.app.inject({ method: 'POST', url: '/users/sign_in', payload: { email, password }, remoteAddress });

/**
 * Lets every lock of this account end now, as if the wait had passed: in the table on PostgreSQL,
 * in the process's counters on the embedded database.
 */
async function endLocks(email: string) {
  memoryLoginThrottleOf(ctx.database.db)?.endLocks((key) => key.includes(email));
  await ctx.database.db
    .update(loginThrottles)
    .set({ lockedUntil: sql`now() - interval '1 second'` })
    .where(sql`${loginThrottles.key} like ${`%${email}%`}`);
}

beforeAll(() => {
  expect(SIGN_IN_THROTTLE.perAccountAndAddress).toBe(5);
  expect(SIGN_IN_THROTTLE.perAccount).toBe(20);
});

describe('sign-in throttle', () => {
  it('checks at most the allowed number of passwords when 30 guesses arrive at once', async () => {
    const email = await newAccount();
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 29 ? PASSWORD : `wrong-guess-${i}`));
    const answers = await Promise.all(guesses.map((p) => attempt(email, p, '10.1.0.1')));
    const statuses = answers.map((a) => a.statusCode);
    // 401 is a password that was checked; 429 the throttle; 503 the full hashing queue.
    expect(statuses.every((s) => [401, 429, 503].includes(s))).toBe(true);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(
      SIGN_IN_THROTTLE.perAccountAndAddress,
    );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // The right password, once the lock is on, is refused without being checked.
    const right = await attempt(email, PASSWORD, '10.1.0.1');
    expect(right.statusCode).toBe(429);
    expect(right.json<{ message: string }>().message).toMatch(/Too many failed sign-in attempts/);
  });

  it('answers a locked key with 429 and a Retry-After that grows with every further check', async () => {
    const email = await newAccount();
    for (let i = 0; i < 5; i++)
      expect((await attempt(email, `bad-${i}-pass`, '10.2.0.1')).statusCode).toBe(401);
    const first = await attempt(email, 'bad-pass-x', '10.2.0.1');
    expect(first.statusCode).toBe(429);
    const firstWait = Number(first.headers['retry-after']);
    expect(firstWait).toBeGreaterThan(50);
    expect(firstWait).toBeLessThanOrEqual(60);

    await endLocks(email);
    expect((await attempt(email, 'bad-pass-y', '10.2.0.1')).statusCode).toBe(401);
    const second = await attempt(email, 'bad-pass-z', '10.2.0.1');
    expect(second.statusCode).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(110);
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(120);

    await endLocks(email);
    expect((await attempt(email, 'bad-pass-w', '10.2.0.1')).statusCode).toBe(401);
    const third = await attempt(email, PASSWORD, '10.2.0.1');
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(230);
  });

  it('never blocks the owner on another address after 20 failures from an attacker address', async () => {
    const email = await newAccount();
    const attacker = [];
    for (let i = 0; i < 20; i++)
      attacker.push((await attempt(email, `guess-${i}-pw`, '10.3.0.66')).statusCode);
    expect(attacker.filter((s) => s === 401)).toHaveLength(5);
    expect(attacker.filter((s) => s === 429)).toHaveLength(15);
    const owner = await attempt(email, PASSWORD, '10.3.0.7');
    expect(owner.statusCode).toBe(200);
  });

  it('throttles the account against many addresses, the same way whether it exists or not', async () => {
    const email = await newAccount();
    for (const target of [email, 'nobody-at-all@example.org']) {
      // Four addresses, five guesses each: the per-account limit.
      for (let a = 0; a < 4; a++) {
        const answers = await Promise.all(
          [0, 1, 2, 3, 4].map((i) => attempt(target, `spray-${i}-pw`, `10.4.${a}.1`)),
        );
        expect(answers.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401]);
      }
      const fresh = await attempt(target, PASSWORD, '10.4.9.9');
      expect(fresh.statusCode).toBe(429);
      expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(0);
    }
    // 40 real scrypt checks through the two-slot hashing queue: minutes on a busy 2-core machine.
  }, 180_000);

  it('gives the owner a few more tries from a fresh address after one address used up its own', async () => {
    const email = await newAccount();
    await Promise.all([0, 1, 2, 3, 4].map((i) => attempt(email, `typo-${i}-pw`, '10.5.0.1')));
    const again = await Promise.all([0, 1, 2, 3].map((i) => attempt(email, `typo-${i}-pw`, '10.5.0.2')));
    expect(again.map((r) => r.statusCode)).toEqual([401, 401, 401, 401]);
    expect((await attempt(email, PASSWORD, '10.5.0.2')).statusCode).toBe(200);
  });

  it('forgets an address run at a successful sign-in', async () => {
    const email = await newAccount();
    await Promise.all([0, 1, 2, 3].map((i) => attempt(email, `typo-${i}-pw`, '10.6.0.1')));
    expect((await attempt(email, PASSWORD, '10.6.0.1')).statusCode).toBe(200);
    const again = await Promise.all([0, 1, 2, 3].map((i) => attempt(email, `typo-${i}-pw`, '10.6.0.1')));
    expect(again.map((r) => r.statusCode)).toEqual([401, 401, 401, 401]);
  });

  it('throttles password change the same way', async () => {
    const email = await newAccount();
    const s = await signInAs(ctx.app, email, PASSWORD);
    const change = (current: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/users',
        headers: s.headers,
        remoteAddress: '10.7.0.1',
        payload: {
          current_password: current,
          password: 'next-password-1',
          password_confirmation: 'next-password-1',
        },
      });
    for (let i = 0; i < 5; i++) expect((await change(`not-it-${i}-pw`)).statusCode).toBe(422);
    const locked = await change(PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The password did not change.
    await endLocks(email);
    expect((await attempt(email, PASSWORD, '10.7.0.2')).statusCode).toBe(200);
  });

  it('keeps the counters where every process sees them: the table on PostgreSQL, memory when embedded', async () => {
    const email = await newAccount();
    for (let i = 0; i < 5; i++)
      expect((await attempt(email, `miss-${i}-pw`, '10.8.0.1')).statusCode).toBe(401);
    expect((await attempt(email, PASSWORD, '10.8.0.1')).statusCode).toBe(429);
    const rows = await ctx.database.db
      .select()
      .from(loginThrottles)
      .where(sql`${loginThrottles.key} like ${`%${email}%`}`);
    if (ctx.database.kind === 'postgres') {
      // Many processes share one PostgreSQL: only shared rows hold the limit across them.
      expect(memoryLoginThrottleOf(ctx.database.db)).toBeUndefined();
      expect(rows.length).toBe(2);
    } else {
      // One process opens the embedded database: a counted or refused attempt writes nothing.
      expect(rows).toEqual([]);
      expect(
        memoryLoginThrottleOf(ctx.database.db)!.lockedUntil([`account+address:${email}|10.8.0.1`]),
      ).not.toBeNull();
    }
  });
});
