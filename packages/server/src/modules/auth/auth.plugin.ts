import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../lib/app-error.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { resumeSession, type SessionUser } from './auth.service.js';

export const SESSION_COOKIE = 'bvdb_session';
const CSRF_HEADER = 'x-csrf-token';
/** A visitor's CSRF token (no session): HttpOnly and SameSite=Strict, echoed in the header by the page. */
export const ANON_CSRF_COOKIE = 'bvdb_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    session: { idHash: string; csrfToken: string } | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Sessions live in the database: any server process can serve any request. */
export async function registerAuth(app: FastifyInstance): Promise<void> {
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);

  const deps = serviceDeps(app);
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const found = await resumeSession(deps, token);
    if (!found) return;
    request.user = found.user;
    request.session = { idHash: found.idHash, csrfToken: found.csrfToken };
  });

  app.decorate('requireUser', async (request: FastifyRequest) => {
    if (!request.user || !request.session)
      throw new AppError('unauthorized', 'You need to sign in to do that');
    if (!SAFE_METHODS.has(request.method)) assertCsrf(request);
  });
}

/** State-changing requests must echo the session's CSRF token in a header a foreign site cannot set. */
export function assertCsrf(request: FastifyRequest): void {
  const sent = request.headers[CSRF_HEADER];
  const expected = request.session?.csrfToken ?? request.cookies[ANON_CSRF_COOKIE];
  if (typeof sent !== 'string' || !expected || !sameToken(sent, expected)) {
    throw new AppError('forbidden', 'Missing or invalid CSRF token; reload the page and try again');
  }
}
