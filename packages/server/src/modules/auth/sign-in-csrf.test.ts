import { describe, expect, it } from 'vitest';
import { TEST_ADMIN, useTestApp } from '../../test/test-app.js';

const ctx = useTestApp({ demo: false });

const signIn = (headers: Record<string, string>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/users/sign_in',
    headers: { host: 'bvdb.example', 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: `email=${encodeURIComponent(TEST_ADMIN.email)}&password=${encodeURIComponent(TEST_ADMIN.password)}`,
  });

describe('login CSRF', () => {
  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['an opaque Origin', { origin: 'null' }],
    ['a foreign Referer', { referer: 'https://evil.example/form.html' }],
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site' }],
    ['a same-site (sibling host) fetch', { 'sec-fetch-site': 'same-site', origin: 'https://x.bvdb.example' }],
  ])('refuses a sign-in form posted from %s with 403 and no session', async (_, headers) => {
    const res = await signIn(headers);
    expect(res.statusCode).toBe(403);
    expect(res.json<{ message: string }>().message).toMatch(/Cross-site sign-in refused/);
    expect(res.cookies.find((c) => c.name === 'bvdb_session')).toBeUndefined();
  });

  it.each([
    ['its own Origin', { origin: 'https://bvdb.example', 'sec-fetch-site': 'same-origin' }],
    ['its own Referer', { referer: 'https://bvdb.example/users/sign_in' }],
    ['no browser headers (a script)', {}],
  ])('accepts a sign-in with %s', async (_, headers) => {
    expect((await signIn(headers)).statusCode).toBe(200);
  });
});
