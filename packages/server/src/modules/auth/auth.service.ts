import { AppError } from '../../lib/app-error.js';
import { hashPassword, verifyPassword } from '../../lib/password.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { countFailure, deleteFailures, findLockedUntil } from './login-throttle.repository.js';
import {
  createSession,
  deleteSession,
  deleteSessionsOfUser,
  findSessionUser,
  touchSession,
} from './session.repository.js';
import { findUserByEmail, findUserById, updatePasswordHash } from './users.repository.js';

type Deps = Pick<ServiceDeps, 'db'>;

/** How long a session lives at most, whatever its use (the cookie's max-age follows it). */
export { ABSOLUTE_LIFETIME_MS } from './session.repository.js';

export interface SessionUser {
  id: number;
  email: string;
  name: string | null;
  role: string;
}

/** A new session: the cookie's token and the CSRF token the page echoes. */
export interface NewSession {
  user: SessionUser;
  token: string;
  csrfToken: string;
}

const THROTTLE = {
  windowMs: 15 * 60 * 1000,
  lockMs: 15 * 60 * 1000,
  perAccount: 5,
  perIp: 20,
} as const;

const TOUCH_EVERY_MS = 60_000;
const INVALID = 'Invalid email or password.';
const LOCKED = 'Too many failed sign-in attempts. Please wait 15 minutes and try again.';
// A fixed hash to verify against when the e-mail is unknown, so both paths take the same time.
let dummyHash: Promise<string> | undefined;

async function isLocked(deps: Deps, key: string, now: Date): Promise<boolean> {
  const until = await findLockedUntil(deps.db, key);
  return until !== null && until > now;
}

async function recordFailure(deps: Deps, key: string, limit: number, now = new Date()): Promise<void> {
  await countFailure(deps.db, key, {
    now,
    windowStart: new Date(now.getTime() - THROTTLE.windowMs),
    limit,
    lockUntil: new Date(now.getTime() + THROTTLE.lockMs),
  });
}

/**
 * Signs in with e-mail and password, throttled per account and per client IP. A new session id at
 * every sign-in (the previous one, if any, ends): a token planted before sign-in is worth nothing after.
 */
export async function signIn(
  deps: Deps,
  input: { email: string; password: string; ip: string; previousToken: string | undefined },
): Promise<NewSession> {
  const email = input.email.toLowerCase();
  const accountKey = `email:${email}`;
  const ipKey = `ip:${input.ip}`;
  const now = new Date();
  if ((await isLocked(deps, accountKey, now)) || (await isLocked(deps, ipKey, now))) {
    throw new AppError('too_many_requests', LOCKED, {
      headers: { 'Retry-After': String(THROTTLE.lockMs / 1000) },
    });
  }
  const user = await findUserByEmail(deps.db, email);
  const ok = user
    ? await verifyPassword(input.password, user.passwordHash)
    : await verifyPassword(input.password, await (dummyHash ??= hashPassword('not-a-real-password')));
  if (!user || !ok) {
    await recordFailure(deps, accountKey, THROTTLE.perAccount);
    await recordFailure(deps, ipKey, THROTTLE.perIp);
    throw new AppError('unauthorized', INVALID);
  }
  await deleteFailures(deps.db, accountKey);
  if (input.previousToken) await deleteSession(deps.db, input.previousToken);
  const { token, csrfToken } = await createSession(deps.db, user.id);
  return { user: { id: user.id, email: user.email, name: user.name, role: user.role }, token, csrfToken };
}

export async function signOut(deps: Deps, token: string): Promise<void> {
  await deleteSession(deps.db, token);
}

/** The signed-in user of a session token, when the session is still alive (its last use noted). */
export async function resumeSession(deps: Deps, token: string, now = new Date()) {
  const found = await findSessionUser(deps.db, token, now);
  if (!found) return undefined;
  // Noting every request would be a write per read; once a minute is precise enough for a 30-minute idle limit.
  if (now.getTime() - found.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await touchSession(deps.db, found.idHash, now);
  }
  return found;
}

/**
 * Changes the signed-in user's password after checking the current one. Every other session of
 * this user ends; the caller's is replaced by the fresh one returned.
 */
export async function changePassword(
  deps: Deps,
  me: SessionUser,
  input: { current: string; next: string },
): Promise<NewSession> {
  const user = await findUserById(deps.db, me.id);
  if (!user || !(await verifyPassword(input.current, user.passwordHash))) {
    throw new AppError('unprocessable', 'Current password is invalid', {
      fields: [{ path: 'current_password', message: 'is invalid' }],
    });
  }
  const passwordHash = await hashPassword(input.next);
  const { token, csrfToken } = await deps.db.transaction(async (tx) => {
    await updatePasswordHash(tx, me.id, passwordHash);
    await deleteSessionsOfUser(tx, me.id);
    return createSession(tx, me.id);
  });
  return { user: me, token, csrfToken };
}
