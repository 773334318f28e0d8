import { randomBytes } from 'node:crypto';
import { changePassword, getSession, signIn, signOut } from '@bvdb/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { AppError } from '../../lib/app-error.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import { route } from '../../plugins/contract-routes.js';
import { sessions, users } from '../../db/schema.js';
import { ANON_CSRF_COOKIE, SESSION_COOKIE } from './auth.plugin.js';
import { clearFailures, lockedUntil, recordFailure, THROTTLE } from './login-throttle.js';
import { ABSOLUTE_LIFETIME_MS, createSession, deleteSession } from './session.repository.js';

const INVALID = 'Invalid email or password.';
const LOCKED = 'Too many failed sign-in attempts. Please wait 15 minutes and try again.';
// A fixed hash to verify against when the e-mail is unknown, so both paths take the same time.
let dummyHash: Promise<string> | undefined;

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

export function registerAuthRoutes(app: FastifyInstance): void {
  const db = () => app.deps.database.db;

  route(app, getSession, async ({ request, reply }) => {
    void reply.header('Cache-Control', 'private, no-store');
    return {
      user: request.user,
      user_id: request.user?.id ?? null,
      csrf_token: request.session?.csrfToken ?? visitorCsrfToken(request, reply),
    };
  });

  route(app, signIn, async ({ body, request, reply }) => {
    const creds = 'user' in body ? body.user : body;
    const email = creds.email.toLowerCase();
    const accountKey = `email:${email}`;
    const ipKey = `ip:${request.ip}`;
    if ((await lockedUntil(db(), accountKey)) || (await lockedUntil(db(), ipKey))) {
      throw new AppError('too_many_requests', LOCKED, {
        headers: { 'Retry-After': String(THROTTLE.lockMs / 1000) },
      });
    }
    const [user] = await db()
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    const ok = user
      ? await verifyPassword(creds.password, user.passwordHash)
      : await verifyPassword(creds.password, await (dummyHash ??= hashPassword('not-a-real-password')));
    if (!user || !ok) {
      await recordFailure(db(), accountKey, THROTTLE.perAccount);
      await recordFailure(db(), ipKey, THROTTLE.perIp);
      throw new AppError('unauthorized', INVALID);
    }
    await clearFailures(db(), accountKey);
    // A new session id at every sign-in: a token planted before sign-in is worth nothing after.
    const old = request.cookies[SESSION_COOKIE];
    if (old) await deleteSession(db(), old);
    const { token, csrfToken } = await createSession(db(), user.id);
    setSessionCookie(request, reply, token);
    const sessionUser = { id: user.id, email: user.email, name: user.name, role: user.role };
    return { user: sessionUser, user_id: user.id, csrf_token: csrfToken };
  });

  route(app, signOut, async ({ request, reply }) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSession(db(), token);
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { code: 'success' as const };
  });

  route(app, changePassword, async ({ body, request, reply }) => {
    const me = request.user!;
    const [user] = await db().select().from(users).where(eq(users.id, me.id));
    if (!user || !(await verifyPassword(body.current_password, user.passwordHash))) {
      throw new AppError('unprocessable', 'Current password is invalid', {
        fields: [{ path: 'current_password', message: 'is invalid' }],
      });
    }
    const passwordHash = await hashPassword(body.password);
    const { token, csrfToken } = await db().transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, me.id));
      // Every other session of this user ends; this one is replaced by a fresh one.
      await tx.delete(sessions).where(eq(sessions.userId, me.id));
      return createSession(tx, me.id);
    });
    setSessionCookie(request, reply, token);
    return { user: me, user_id: me.id, csrf_token: csrfToken };
  });
}
