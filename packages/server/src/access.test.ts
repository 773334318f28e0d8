import { admits, ROLES, type Access, type Role } from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import { serviceDeps } from './lib/service-deps.js';
import { createUser } from './modules/auth/users.service.js';
import { useTestApp } from './test/test-app.js';
import { signInAs } from './test/sign-in.js';

const ctx = useTestApp({ demo: false });

const sample = (url: string) =>
  url
    .replace(/:file/g, '1.xlsx')
    .replace(/:type/g, 'cvi')
    .replace(/:[a-z_]+/g, '1')
    .replace(/\*$/, '');

describe('access is declared and enforced on every route', () => {
  it('every route of the contract declares public or the roles it admits', () => {
    const undeclared = ctx.app.registeredRoutes.filter(
      (r) =>
        r.access === undefined &&
        r.method !== 'HEAD' &&
        r.method !== 'OPTIONS' &&
        !r.url.startsWith('/api/docs') &&
        r.url !== '/api/openapi.json' &&
        r.url !== '/*',
    );
    expect(undeclared).toEqual([]);
  });

  it('every write and every signed-in read refuses an anonymous caller with 401', async () => {
    const writes = ctx.app.registeredRoutes.filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method));
    for (const r of writes) {
      if (r.access === 'public') continue; // e.g. sign-in and the statistics service compute nothing stored
      const res = await ctx.app.inject({ method: r.method as 'POST', url: sample(r.url), payload: {} });
      expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 401,
      });
    }
    const protectedReads = ctx.app.registeredRoutes.filter(
      (r) => r.method === 'GET' && r.access !== undefined && r.access !== 'public',
    );
    for (const r of protectedReads) {
      const res = await ctx.app.inject({ method: 'GET', url: sample(r.url) });
      expect({ route: r.url, status: res.statusCode }).toEqual({ route: r.url, status: 401 });
    }
  });

  it('the change feed and its Atom feeds are public reads (issue 30.1)', async () => {
    const feeds = ['/api/v1/changes', '/changes.atom', '/analytes/:id/changes.atom'];
    for (const url of feeds) {
      expect(ctx.app.registeredRoutes.find((r) => r.method === 'GET' && r.url === url)?.access).toBe(
        'public',
      );
    }
    for (const url of ['/api/v1/changes?since=0', '/changes.atom']) {
      expect((await ctx.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    // No measurand 1 in an empty catalogue: a 404, not a refusal.
    expect((await ctx.app.inject({ method: 'GET', url: '/analytes/1/changes.atom' })).statusCode).toBe(404);
  });

  it('public writes are only the ones that store nothing or must be public', () => {
    const publicWrites = ctx.app.registeredRoutes
      .filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && r.access === 'public')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(publicWrites).toEqual(
      [
        'POST /api/stats/metacalculation',
        'POST /api/v1/estimations',
        // An indirect estimate from a laboratory's extract (decision 095): computes, stores nothing.
        'POST /api/v1/indirect',
        'POST /api/v1/menu',
        // A laboratory keeps its menu by a link without an account (decision 064): stored, so it
        // carries the CSRF token and the write rate class, as the mailing-list subscribe.
        'POST /api/v1/menus',
        'POST /users/sign_in',
        // Change verdicts (decision 087): a batch and the FHIR operation compute and store nothing.
        'POST /api/v1/rcv',
        'POST /fhir/Observation/$rcv',
        'POST /api/mailing_list/subscribe',
      ].sort(),
    );
  });

  it('a signed-in write without the CSRF header is refused with 403', async () => {
    const s = await signInAs(ctx.app);
    const writes = ctx.app.registeredRoutes.filter(
      (r) =>
        !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && r.access !== undefined && r.access !== 'public',
    );
    expect(writes.length).toBeGreaterThan(0);
    for (const r of writes) {
      const res = await ctx.app.inject({
        method: r.method as 'POST',
        url: sample(r.url),
        payload: {},
        headers: { cookie: s.cookie },
      });
      expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 403,
      });
    }
  });
});

describe('every route checks the role on the server', () => {
  const PASSWORD = 'role-password-123';
  const signedIn = {} as Record<Role, Awaited<ReturnType<typeof signInAs>>>;

  it('admits each role exactly where the contract says, and answers 403 elsewhere', async () => {
    for (const role of ROLES) {
      const email = `${role}-walker@example.org`;
      await createUser(serviceDeps(ctx.app), { email, name: null, role, password: PASSWORD });
      signedIn[role] = await signInAs(ctx.app, email, PASSWORD);
    }
    const guarded = ctx.app.registeredRoutes.filter(
      (r): r is typeof r & { access: Exclude<Access, 'public'> } =>
        r.access !== undefined && r.access !== 'public' && r.method !== 'HEAD',
    );
    // Every role is admitted somewhere and refused somewhere (the walk below proves both sides).
    for (const role of ROLES) {
      expect(guarded.some((r) => admits(r.access, role))).toBe(true);
    }
    expect(guarded.some((r) => !admits(r.access, 'assessor'))).toBe(true);
    expect(guarded.some((r) => !admits(r.access, 'curator'))).toBe(true);
    for (const role of ROLES) {
      for (const r of guarded) {
        // Signing out would end the walker's session; sign-out is covered by the auth tests.
        if (r.url === '/users/sign_out') continue;
        const res = await ctx.app.inject({
          method: r.method as 'POST',
          url: sample(r.url),
          ...(r.method === 'GET' ? {} : { payload: {} }),
          headers: r.method === 'GET' ? { cookie: signedIn[role].cookie } : signedIn[role].headers,
        });
        const route = `${role}: ${r.method} ${r.url}`;
        if (admits(r.access, role)) {
          expect({ route, refused: [401, 403].includes(res.statusCode) }).toEqual({ route, refused: false });
        } else {
          expect({ route, status: res.statusCode }).toEqual({ route, status: 403 });
        }
      }
    }
  });
});
