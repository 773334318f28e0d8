import * as contract from '@bvdb/contract';
import type { RouteDef } from '@bvdb/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs, type SignedIn } from '../test/sign-in.js';
import { createTestApp, type TestContext } from '../test/test-app.js';
import { errorMessageOf } from '../test/error-message.js';

/**
 * Defence in depth (issue 43.6): a state-changing request that a browser says comes from another
 * site is refused with 403 even when it carries the right CSRF token (a token that leaked, or one a
 * sibling host read, is no pass for a page elsewhere). The request's own site is its host as
 * Fastify reads it (`X-Forwarded-Host` when TRUST_PROXY trusts the proxy) or PUBLIC_URL's.
 */
const isRoute = (v: unknown): v is RouteDef =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'responses' in v;
const ROUTES = (Object.values(contract) as unknown[]).filter(isRoute);
/** Signing in has its own cross-site guard and message (sign-in-csrf.test.ts). */
const SIGN_IN = 'POST /users/sign_in';
/** Every method but GET, public routes too (CORS admits only GET and HEAD from elsewhere). */
const STATE_CHANGING = ROUTES.filter((r) => r.method !== 'GET' && `${r.method} ${r.path}` !== SIGN_IN);

const HOST = 'bvdb.example';
let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ctx = await createTestApp({ demo: true, env: { PUBLIC_URL: 'https://data.bvdb.example/' } });
  s = await signInAs(ctx.app);
});
afterAll(async () => ctx.close());

const urlOf = (r: RouteDef) => r.path.replace(/:[A-Za-z_]+/g, '1').replace(/\*$/, 'x');
const send = (r: RouteDef, headers: Record<string, string>) =>
  ctx.app.inject({
    method: r.method,
    url: urlOf(r),
    headers: { host: HOST, ...s.headers, ...headers },
    ...(r.method === 'DELETE' ? {} : { payload: {} }),
  });

describe('a write from another site, with a valid CSRF token', () => {
  it('finds the state-changing routes', () => {
    const labels = STATE_CHANGING.map((r) => `${r.method} ${r.path}`);
    expect(labels).toEqual(
      expect.arrayContaining([
        'DELETE /api/units/:id',
        'PUT /api/users/:id/password',
        'POST /api/mailing_list/subscribe',
        'POST /api/v1/menus',
        'POST /api/v1/estimations',
      ]),
    );
  });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['an opaque Origin', { origin: 'null' }],
    ['a foreign Referer without Origin', { referer: 'https://evil.example/page' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling host)', { 'sec-fetch-site': 'same-site' }],
  ])('every state-changing route refuses %s with 403, whatever its body', async (_, headers) => {
    // Signing out last: it would end the session the others use if it were let through.
    const routes = [...STATE_CHANGING].sort(
      (a, b) => Number(a.path === '/users/sign_out') - Number(b.path === '/users/sign_out'),
    );
    for (const route of routes) {
      const res = await send(route, headers);
      expect({ route: `${route.method} ${route.path}`, status: res.statusCode }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
      });
      expect(errorMessageOf(res)).toMatch(/^Cross-site request refused/);
    }
  });

  it('the same write from the site itself goes through (its Origin, PUBLIC_URL’s, or none)', async () => {
    const unit = ctx.app.inject({
      method: 'PUT',
      url: '/api/units/1',
      headers: { host: HOST, ...s.headers, origin: `https://${HOST}`, 'sec-fetch-site': 'same-origin' },
      payload: {},
    });
    // 400: past the guard, the body is checked (it names no field); not 403.
    expect((await unit).statusCode).toBe(400);
    for (const headers of [
      { origin: 'https://data.bvdb.example' },
      { referer: `https://${HOST}/units` },
      {},
    ]) {
      const res = await ctx.app.inject({
        method: 'PUT',
        url: '/api/units/1',
        headers: { host: HOST, ...s.headers, ...headers },
        payload: {},
      });
      expect(res.statusCode, JSON.stringify(headers)).toBe(400);
    }
  });
});

describe('behind a trusted proxy', () => {
  let proxied: TestContext;
  let ps: SignedIn;
  beforeAll(async () => {
    proxied = await createTestApp({ demo: false, env: { TRUST_PROXY: '127.0.0.1' } });
    ps = await signInAs(proxied.app);
  });
  afterAll(async () => proxied.close());

  const put = (headers: Record<string, string>) =>
    proxied.app.inject({
      method: 'PUT',
      url: '/api/units/1',
      remoteAddress: '127.0.0.1',
      headers: { host: 'internal:3000', ...ps.headers, ...headers },
      payload: {},
    });

  it('takes the forwarded host as the site: its Origin passes, another is refused', async () => {
    const own = await put({ 'x-forwarded-host': 'bvdb.example', origin: 'https://bvdb.example' });
    expect(own.statusCode).not.toBe(403);
    const other = await put({ 'x-forwarded-host': 'bvdb.example', origin: 'https://internal:3000' });
    expect(other.statusCode).toBe(403);
  });
});
