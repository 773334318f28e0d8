import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.js';
import { TEST_ADMIN, useTestApp } from '../../test/test-app.js';
import { signInAs } from '../../test/sign-in.js';

const ctx = useTestApp({ demo: false });

describe('sign-in and sessions', () => {
  it('signs in, sets an HttpOnly SameSite=Lax cookie, and the session names the user', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: '/users/sign_in', payload: TEST_ADMIN });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === 'bvdb_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const session = await ctx.app.inject({
      url: '/api/session',
      headers: { cookie: `bvdb_session=${cookie.value}` },
    });
    expect(session.json()).toMatchObject({ user: { email: TEST_ADMIN.email }, user_id: expect.any(Number) });
    const anonymous = await ctx.app.inject({ url: '/api/session' });
    // A visitor gets a token too (for the public subscribe form), never a session's.
    expect(anonymous.json()).toMatchObject({ user: null, user_id: null });
    expect(anonymous.json<{ csrf_token: string }>().csrf_token).not.toBe(
      session.json<{ csrf_token: string }>().csrf_token,
    );
  });

  it('accepts a form body as the live sign-in page sends it', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/users/sign_in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent(TEST_ADMIN.email)}&password=${encodeURIComponent(TEST_ADMIN.password)}`,
    });
    expect(res.statusCode).toBe(200);
  });

  it('gives the same answer for a wrong password and an unknown e-mail', async () => {
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/users/sign_in',
      payload: { email: TEST_ADMIN.email, password: 'nope-nope' },
    });
    const unknown = await ctx.app.inject({
      method: 'POST',
      url: '/users/sign_in',
      payload: { email: 'ghost@example.org', password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json<{ message: string }>().message).toBe(unknown.json<{ message: string }>().message);
  });

  it('rotates the session id at sign-in and ends it on the server at sign-out', async () => {
    const first = await signInAs(ctx.app);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/users/sign_in',
      payload: TEST_ADMIN,
      headers: { cookie: first.cookie },
    });
    const second = res.cookies.find((c) => c.name === 'bvdb_session')!.value;
    expect(`bvdb_session=${second}`).not.toBe(first.cookie);
    const stale = await ctx.app.inject({ url: '/api/session', headers: { cookie: first.cookie } });
    expect(stale.json<{ user: unknown }>().user).toBeNull();

    const headers = {
      cookie: `bvdb_session=${second}`,
      'x-csrf-token': res.json<{ csrf_token: string }>().csrf_token,
    };
    const noCsrf = await ctx.app.inject({
      method: 'DELETE',
      url: '/users/sign_out',
      headers: { cookie: headers.cookie },
    });
    expect(noCsrf.statusCode).toBe(403);
    const out = await ctx.app.inject({ method: 'DELETE', url: '/users/sign_out', headers });
    expect(out.statusCode).toBe(200);
    const after = await ctx.app.inject({ url: '/api/session', headers: { cookie: headers.cookie } });
    expect(after.json<{ user: unknown }>().user).toBeNull();
  });

  it('ends a session idle for more than 30 minutes', async () => {
    const s = await signInAs(ctx.app);
    await ctx.database.db.update(sessions).set({ lastSeenAt: sql`now() - interval '31 minutes'` });
    const res = await ctx.app.inject({ url: '/api/session', headers: { cookie: s.cookie } });
    expect(res.json<{ user: unknown }>().user).toBeNull();
  });

  it('changes the password only with the current one, and rejects a short one', async () => {
    const s = await signInAs(ctx.app);
    const wrong = await ctx.app.inject({
      method: 'PUT',
      url: '/users',
      headers: s.headers,
      payload: {
        current_password: 'not-it-at-all',
        password: 'new-password-1',
        password_confirmation: 'new-password-1',
      },
    });
    expect(wrong.statusCode).toBe(422);
    const short = await ctx.app.inject({
      method: 'PUT',
      url: '/users',
      headers: s.headers,
      payload: { current_password: TEST_ADMIN.password, password: 'short', password_confirmation: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json<{ message: string }>().message).toMatch(/at least 8/);
    const ok = await ctx.app.inject({
      method: 'PUT',
      url: '/users',
      headers: s.headers,
      payload: {
        current_password: TEST_ADMIN.password,
        password: 'new-password-1',
        password_confirmation: 'new-password-1',
      },
    });
    expect(ok.statusCode).toBe(200);
    await signInAs(ctx.app, TEST_ADMIN.email, 'new-password-1');
    // Restore for the other tests.
    const s2 = await signInAs(ctx.app, TEST_ADMIN.email, 'new-password-1');
    await ctx.app.inject({
      method: 'PUT',
      url: '/users',
      headers: s2.headers,
      payload: {
        current_password: 'new-password-1',
        password: TEST_ADMIN.password,
        password_confirmation: TEST_ADMIN.password,
      },
    });
  });
});
