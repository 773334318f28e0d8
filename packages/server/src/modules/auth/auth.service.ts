import { AppError } from '../../lib/app-error.js';
import { admitHashing, DUMMY_PASSWORD_HASH } from '../../lib/password.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { loginThrottleFor } from './login-throttle.repository.js';
import type { ThrottleKey } from './login-throttle.types.js';
import {
  createSession,
  deleteSession,
  deleteExpiredSessions,
  deleteSessionsOfUser,
  findSessionUser,
  touchSession,
} from './session.repository.js';
import { findUserByEmail, findUserById, updatePasswordHash } from './users.repository.js';

type Deps = Pick<ServiceDeps, 'db'>;

/** How long a session lives at most, whatever its use (the cookie's max-age follows it). */

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

/**
 * Sign-in throttle (docs/decisions/018-sign-in-throttle.md): password checks are counted before they
 * are made, per account and address and per account. Beyond a limit the key is locked for a minute,
 * doubling with every further check, up to an hour; a run is forgotten 15 minutes after it began
 * or after its last lock ended. Nothing sleeps on the server: a locked key answers 429 at once.
 */
export const SIGN_IN_THROTTLE = {
  /** Checks of one account from one address: the owner's typos, or one attacker's guesses. */
  perAccountAndAddress: 5,
  /** Checks of one account from all addresses: an attacker needs four addresses to lock the owner. */
  perAccount: 20,
  windowMs: 15 * 60 * 1000,
  baseLockMs: 60 * 1000,
  maxLockMs: 60 * 60 * 1000,
} as const;

const TOUCH_EVERY_MS = 60_000;
const INVALID = 'Invalid email or password.';

function throttleKeys(email: string, ip: string): { account: ThrottleKey; pair: ThrottleKey } {
  return {
    account: { key: `account:${email}`, limit: SIGN_IN_THROTTLE.perAccount },
    pair: { key: `account+address:${email}|${ip}`, limit: SIGN_IN_THROTTLE.perAccountAndAddress },
  };
}

/** Counts the check about to be made, or answers 429 with how long the lock still lasts. */
async function admitPasswordCheck(deps: Deps, email: string, ip: string): Promise<void> {
  const { account, pair } = throttleKeys(email, ip);
  const now = new Date();
  const throttle = loginThrottleFor(deps.db);
  if (await throttle.admit([account, pair], SIGN_IN_THROTTLE, now)) return;
  const until = await throttle.lockedUntil([account.key, pair.key]);
  const seconds = Math.max(1, Math.ceil(((until?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  throw new AppError(
    'too_many_requests',
    `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    { headers: { 'Retry-After': String(seconds) } },
  );
}

/** The right password: this address's run is over, and the check no longer counts for the account. */
async function forgetPasswordCheck(deps: Deps, email: string, ip: string): Promise<void> {
  const { account, pair } = throttleKeys(email, ip);
  const throttle = loginThrottleFor(deps.db);
  await throttle.forget(pair.key);
  await throttle.uncount(account);
}

/**
 * Signs in with e-mail and password, throttled per account and address and per account. A place in
 * the bounded hashing queue is taken first (503 when it is full), then the check is counted (429
 * when locked), and only then is the password hashed. A new session id at every sign-in (the
 * previous one, if any, ends): a token planted before sign-in is worth nothing after.
 */
export async function signIn(
  deps: Deps,
  input: { email: string; password: string; ip: string; previousToken: string | undefined },
): Promise<NewSession> {
  const email = input.email.toLowerCase();
  const ticket = admitHashing();
  let user: Awaited<ReturnType<typeof findUserByEmail>>;
  let ok: boolean;
  try {
    await admitPasswordCheck(deps, email, input.ip);
    user = await findUserByEmail(deps.db, email);
    // An unknown e-mail costs the same scrypt run, so the answer cannot tell whether it exists.
    ok = await ticket.verify(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  } finally {
    ticket.release();
  }
  // A deactivated account gets the same answer as a wrong password: nothing to learn from it.
  if (!user || !ok || !user.active) throw new AppError('unauthorized', INVALID);
  await forgetPasswordCheck(deps, email, input.ip);
  if (input.previousToken) await deleteSession(deps.db, input.previousToken);
  const { token, csrfToken } = await createSession(deps.db, user.id);
  return { user: { id: user.id, email: user.email, name: user.name, role: user.role }, token, csrfToken };
}

export async function signOut(deps: Deps, token: string): Promise<void> {
  await deleteSession(deps.db, token);
}

/** Deletes the sessions that can no longer be resumed (the session purge calls it now and then). */
export async function purgeExpiredSessions(deps: Deps, now = new Date()): Promise<number> {
  return deleteExpiredSessions(deps.db, now);
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
  input: { current: string; next: string; ip: string },
): Promise<NewSession> {
  const email = me.email.toLowerCase();
  const ticket = admitHashing();
  let passwordHash: string;
  try {
    // The same throttle as sign-in: a stolen session cannot guess the password here instead.
    await admitPasswordCheck(deps, email, input.ip);
    const user = await findUserById(deps.db, me.id);
    if (!user || !(await ticket.verify(input.current, user.passwordHash))) {
      throw new AppError('unprocessable', 'Current password is invalid', {
        fields: [{ path: 'current_password', message: 'is invalid' }],
      });
    }
    await forgetPasswordCheck(deps, email, input.ip);
    passwordHash = await ticket.hash(input.next);
  } finally {
    ticket.release();
  }
  const { token, csrfToken } = await deps.db.transaction(async (tx) => {
    await updatePasswordHash(tx, me.id, passwordHash);
    await deleteSessionsOfUser(tx, me.id);
    return createSession(tx, me.id);
  });
  return { user: me, token, csrfToken };
}
