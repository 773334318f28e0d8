import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema.js';

/** E-mail addresses are unique regardless of case. */
export async function findUserByEmail(db: DbOrTx, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

export async function findUserById(db: DbOrTx, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function hasAnyUser(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return row !== undefined;
}

export async function insertUser(
  db: DbOrTx,
  values: { email: string; name: string | null; role: 'admin' | 'curator'; passwordHash: string },
): Promise<void> {
  await db.insert(users).values(values);
}

/** A new password also lifts any lock left on the account. */
export async function updatePasswordHash(db: DbOrTx, id: number, passwordHash: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, failedAttempts: 0, lockedUntil: null, updatedAt: new Date() })
    .where(eq(users.id, id));
}
