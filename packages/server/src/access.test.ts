import { describe, expect, it } from 'vitest';
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
  it('every route of the contract declares public or signed-in', () => {
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
      (r) => r.method === 'GET' && r.access === 'signed-in',
    );
    for (const r of protectedReads) {
      const res = await ctx.app.inject({ method: 'GET', url: sample(r.url) });
      expect({ route: r.url, status: res.statusCode }).toEqual({ route: r.url, status: 401 });
    }
  });

  it('public writes are only the ones that store nothing or must be public', () => {
    const publicWrites = ctx.app.registeredRoutes
      .filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && r.access === 'public')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(publicWrites).toEqual(
      ['POST /api/stats/metacalculation', 'POST /users/sign_in', 'POST /api/mailing_list/subscribe'].sort(),
    );
  });

  it('a signed-in write without the CSRF header is refused with 403', async () => {
    const s = await signInAs(ctx.app);
    const writes = ctx.app.registeredRoutes.filter(
      (r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method) && r.access === 'signed-in',
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
