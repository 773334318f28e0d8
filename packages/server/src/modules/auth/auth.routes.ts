import { randomBytes } from 'node:crypto';
import { changePassword, getSession, signIn, signOut } from '@bvdb/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { countHashingRefusal, HASHING_BUSY_ANSWER, hashingQueueFull } from '../../lib/password.js';
import { offerRefusal } from '../../lib/fast-reads.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, type RouteExtras } from '../../plugins/contract-routes.js';
import { ANON_CSRF_COOKIE, assertSameOrigin } from '../../plugins/csrf.js';
import { SESSION_COOKIE } from './auth.plugin.js';
import * as auth from './auth.service.js';
import { ABSOLUTE_LIFETIME_MS } from './session.repository.js';

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: Math.floor(ABSOLUTE_LIFETIME_MS / 1000),
  });
}

/**
 * A visitor's token for the few public writes (the subscribe form): kept in an HttpOnly,
 * SameSite=Strict cookie that a foreign site can neither read nor make the browser send.
 */
function visitorCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[ANON_CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  void reply.setCookie(ANON_CSRF_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
  });
  return token;
}

/** Sets the new session's cookie and answers what the page needs: the user and the CSRF token. */
function startSession(request: FastifyRequest, reply: FastifyReply, session: auth.NewSession) {
  setSessionCookie(request, reply, session.token);
  return { user: session.user, user_id: session.user.id, csrf_token: session.csrfToken };
}

/**
 * While the password hashing queue is full, a sign-in or password change is answered 503 before its
 * body is read, validated or anything is asked of the database: in a login flood most requests
 * end here, and they must cost the event loop as little as possible (decision 032). Nothing is
 * checked or counted for them, so the throttles and the CSRF checks lose nothing; the service
 * still takes its place in the queue itself, which stays the rule when the queue fills meanwhile.
 */
const BUSY_BODY = Buffer.from(HASHING_BUSY_ANSWER.body);

const refuseWhileHashingBusy: RouteExtras = {
  answerEarly: (request, reply) => {
    if (!hashingQueueFull()) return undefined;
    countHashingRefusal();
    // The same 503 for every anonymous caller while the queue stays full: replayed before Fastify
    // handles the next one (plugins/fast-reads.ts, decision 041).
    offerRefusal(request, { applies: hashingQueueFull, body: BUSY_BODY });
    return reply
      .code(HASHING_BUSY_ANSWER.statusCode)
      .headers(HASHING_BUSY_ANSWER.headers)
      .type('application/json; charset=utf-8')
      .send(BUSY_BODY);
  },
};

export function registerAuthRoutes(app: FastifyInstance): void {
  const deps = serviceDeps(app);

  route(app, getSession, async ({ request, reply }) => {
    void reply.header('Cache-Control', 'private, no-store');
    return {
      user: request.user,
      user_id: request.user?.id ?? null,
      csrf_token: request.session?.csrfToken ?? visitorCsrfToken(request, reply),
    };
  });

  route(
    app,
    signIn,
    async ({ body, request, reply }) => {
      assertSameOrigin(request);
      const creds = 'user' in body ? body.user : body;
      const session = await auth.signIn(deps, {
        email: creds.email,
        password: creds.password,
        ip: request.ip,
        previousToken: request.cookies[SESSION_COOKIE],
      });
      return startSession(request, reply, session);
    },
    refuseWhileHashingBusy,
  );

  route(app, signOut, async ({ request, reply }) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await auth.signOut(deps, token);
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { code: 'success' as const };
  });

  route(
    app,
    changePassword,
    async ({ body, request, reply }) => {
      const session = await auth.changePassword(deps, request.user!, {
        current: body.current_password,
        next: body.password,
        ip: request.ip,
      });
      return startSession(request, reply, session);
    },
    refuseWhileHashingBusy,
  );
}
