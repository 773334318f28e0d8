import type { FastifyInstance } from 'fastify';
import { TEST_ADMIN } from './test-app.js';

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
