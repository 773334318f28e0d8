import type { FastifyInstance } from 'fastify';
import { createTestApp, TEST_ADMIN, type TestContext } from './test-app.js';

/** Signs in through the real endpoint; returns the cookie header and CSRF token for later calls. */
export async function signInAs(
  app: FastifyInstance,
  email = TEST_ADMIN.email,
  password = TEST_ADMIN.password,
) {
  const res = await app.inject({ method: 'POST', url: '/users/sign_in', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'bvdb_session')!;
  const csrf = res.json<{ csrf_token: string }>().csrf_token;
  return {
    cookie: `bvdb_session=${cookie.value}`,
    csrf,
    headers: { cookie: `bvdb_session=${cookie.value}`, 'x-csrf-token': csrf },
  };
}

export type SignedIn = Awaited<ReturnType<typeof signInAs>>;

/** A fresh test app with the seeded administrator signed in (the usual setup of a write-route test file). */
export async function createSignedInTestApp(): Promise<{ ctx: TestContext; s: SignedIn }> {
  const ctx = await createTestApp();
  return { ctx, s: await signInAs(ctx.app) };
}

/** A signed-out visitor's CSRF cookie and token, as a page gets them from GET /api/session. */
export async function visitorHeaders(app: FastifyInstance): Promise<Record<string, string>> {
  const res = await app.inject({ url: '/api/session' });
  const cookie = res.cookies.find((c) => c.name === 'bvdb_csrf')!;
  return {
    cookie: `bvdb_csrf=${cookie.value}`,
    'x-csrf-token': res.json<{ csrf_token: string }>().csrf_token,
  };
}
