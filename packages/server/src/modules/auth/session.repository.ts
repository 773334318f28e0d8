import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';

const IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const ABSOLUTE_LIFETIME_MS = 12 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

export async function createSession(db: DbOrTx, userId: number, now = new Date()) {
  const token = newToken();
  const csrfToken = newToken();
  await db.insert(sessions).values({
    idHash: hashToken(token),
    userId,
    csrfToken,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ABSOLUTE_LIFETIME_MS),
  });
  return { token, csrfToken };
}

/** The session's user, when the session is neither idle past 30 minutes nor past its lifetime. */
export async function findSessionUser(db: DbOrTx, token: string, now = new Date()) {
  const [row] = await db
    .select({
      idHash: sessions.idHash,
      csrfToken: sessions.csrfToken,
      lastSeenAt: sessions.lastSeenAt,
      user: { id: users.id, email: users.email, name: users.name, role: users.role },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.idHash, hashToken(token)),
        eq(users.active, true),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, new Date(now.getTime() - IDLE_TIMEOUT_MS)),
      ),
    );
  return row;
}

export async function touchSession(db: DbOrTx, idHash: string, now = new Date()) {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
}

export async function deleteSession(db: DbOrTx, token: string) {
  await db.delete(sessions).where(eq(sessions.idHash, hashToken(token)));
}

/** Every session of one user ends (after a password change). */
export async function deleteSessionsOfUser(db: DbOrTx, userId: number) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Sessions past their lifetime or idle past the limit: no request can resume them. */
export async function deleteExpiredSessions(db: DbOrTx, now = new Date()): Promise<number> {
  const gone = await db
    .delete(sessions)
    .where(
      or(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, new Date(now.getTime() - IDLE_TIMEOUT_MS))),
    )
    .returning({ idHash: sessions.idHash });
  return gone.length;
}
