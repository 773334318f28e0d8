import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { assertCsrf } from '../../plugins/csrf.js';
import { resumeSession, type SessionUser } from './auth.service.js';

export const SESSION_COOKIE = 'bvdb_session';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    session: { idHash: string; csrfToken: string } | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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
