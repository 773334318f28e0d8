import type { Role } from '@bvdb/contract';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

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

/** The row, locked for the rest of the transaction (a version check and its update stay together). */
export async function lockUser(tx: DbOrTx, id: number) {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

export async function hasAnyUser(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return row !== undefined;
}

export async function listUsers(db: DbOrTx): Promise<UserRow[]> {
  return db.select().from(users).orderBy(asc(users.email));
}

/** Active accounts, optionally without one (the board's assessor choices). */
export async function listActiveUsers(db: DbOrTx, exceptId?: number): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(and(eq(users.active, true), exceptId === undefined ? undefined : ne(users.id, exceptId)))
    .orderBy(asc(users.email));
}

export async function insertUser(
  db: DbOrTx,
  values: { email: string; name: string | null; role: Role; passwordHash: string },
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function updateUserRow(
  db: DbOrTx,
  id: number,
  values: { role?: Role; active?: boolean; version: number },
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** A new password also lifts any lock left on the account. */
export async function updatePasswordHash(db: DbOrTx, id: number, passwordHash: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash, failedAttempts: 0, lockedUntil: null, updatedAt: new Date() })
    .where(eq(users.id, id));
}
