import { describe, expect, it } from 'vitest';
import { signInAs } from '../../test/sign-in.js';
import { useTestApp } from '../../test/test-app.js';

const ctx = useTestApp({ demo: false });

async function visitorToken() {
  const res = await ctx.app.inject({ url: '/api/session' });
  const cookie = res.cookies.find((c) => c.name === 'bvdb_csrf')!;
  return { res, cookie, token: res.json<{ csrf_token: string }>().csrf_token };
}

async function members(): Promise<string[]> {
  const { headers } = await signInAs(ctx.app);
  const res = await ctx.app.inject({ url: '/api/mailguns/bv_calculations/members', headers });
  return res.json<{ data: { email: string }[] }>().data.map((m) => m.email);
}

describe('public subscribe form', () => {
  it('gives a visitor a CSRF token bound to an HttpOnly, SameSite=Strict cookie', async () => {
    const { res, cookie, token } = await visitorToken();
    expect(res.json<{ user_id: number | null }>().user_id).toBeNull();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.value).toBe(token);
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Strict');
  });

  it('subscribes with the token, and refuses a request without it or with another one', async () => {
    const { cookie, token } = await visitorToken();
    const payload = { email: 'Reader@Example.org', name: 'A Reader' };

    const noToken = await ctx.app.inject({ method: 'POST', url: '/api/mailing_list/subscribe', payload });
    expect(noToken.statusCode).toBe(403);
    const headerOnly = await ctx.app.inject({
      method: 'POST',
      url: '/api/mailing_list/subscribe',
      payload,
      headers: { 'x-csrf-token': token },
    });
    expect(headerOnly.statusCode).toBe(403);
    const mismatch = await ctx.app.inject({
      method: 'POST',
      url: '/api/mailing_list/subscribe',
      payload,
      headers: { cookie: `bvdb_csrf=${cookie.value}`, 'x-csrf-token': 'x'.repeat(43) },
    });
    expect(mismatch.statusCode).toBe(403);
    expect(await members()).not.toContain('Reader@Example.org');

    const ok = await ctx.app.inject({
      method: 'POST',
      url: '/api/mailing_list/subscribe',
      payload,
      headers: { cookie: `bvdb_csrf=${cookie.value}`, 'x-csrf-token': token },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ code: 'success', message: 'Thank you: Reader@Example.org is subscribed.' });
    expect(await members()).toContain('Reader@Example.org');
  });

  it('answers 400 with a field message for a bad address, and stores nothing', async () => {
    const { cookie, token } = await visitorToken();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/mailing_list/subscribe',
      payload: { email: 'not-an-address<script>' },
      headers: { cookie: `bvdb_csrf=${cookie.value}`, 'x-csrf-token': token },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fields: { path: string }[] }>().fields.map((f) => f.path)).toContain('body.email');
    expect((await members()).some((m) => m.includes('script'))).toBe(false);
  });

  it("keeps an existing member's name and spelling when a visitor subscribes the same address", async () => {
    const { headers } = await signInAs(ctx.app);
    const added = await ctx.app.inject({
      method: 'POST',
      url: '/api/mailguns/bv_calculations/add_member_to_list',
      headers,
      payload: { email: 'Member@Example.org', name: 'Real Name' },
    });
    expect(added.statusCode).toBe(200);
    const { cookie, token } = await visitorToken();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/mailing_list/subscribe',
      payload: { email: 'member@example.org', name: 'Someone Else' },
      headers: { cookie: `bvdb_csrf=${cookie.value}`, 'x-csrf-token': token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'success', message: 'Thank you: member@example.org is subscribed.' });
    const list = await ctx.app.inject({ url: '/api/mailguns/bv_calculations/members', headers });
    const stored = list
      .json<{ data: { email: string; name: string | null }[] }>()
      .data.filter((m) => m.email.toLowerCase() === 'member@example.org');
    expect(stored).toEqual([expect.objectContaining({ email: 'Member@Example.org', name: 'Real Name' })]);
  });
});
