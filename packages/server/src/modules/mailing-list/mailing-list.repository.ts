import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { mailingListMembers } from '../../db/schema.js';

export type MemberRow = typeof mailingListMembers.$inferSelect;

/** The newest members first, at most a thousand (the admin page's list). */
export async function listMembers(db: DbOrTx): Promise<MemberRow[]> {
  return db
    .select()
    .from(mailingListMembers)
    .orderBy(desc(mailingListMembers.updatedAt), desc(mailingListMembers.id))
    .limit(1000);
}

/** The member with this address (case-insensitive), locked until the end of the transaction. */
export async function lockMemberByEmail(tx: DbOrTx, email: string): Promise<MemberRow | undefined> {
  const [row] = await tx
    .select()
    .from(mailingListMembers)
    .where(sql`lower(${mailingListMembers.email}) = lower(${email})`)
    .for('update');
  return row;
}

export async function insertMember(tx: DbOrTx, email: string, name: string | null): Promise<MemberRow> {
  const [row] = await tx.insert(mailingListMembers).values({ email, name }).returning();
  return row!;
}

export async function updateMember(
  tx: DbOrTx,
  id: number,
  values: { email: string; name: string | null },
): Promise<MemberRow> {
  const [row] = await tx
    .update(mailingListMembers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(mailingListMembers.id, id))
    .returning();
  return row!;
}

export async function markMemberSynced(db: DbOrTx, id: number): Promise<MemberRow | undefined> {
  const [row] = await db
    .update(mailingListMembers)
    .set({ syncedAt: new Date() })
    .where(eq(mailingListMembers.id, id))
    .returning();
  return row;
}

/** Every member's address, oldest first (whom a release's notes are sent to). */
export async function listAllAddresses(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ email: mailingListMembers.email })
    .from(mailingListMembers)
    .orderBy(mailingListMembers.id);
  return rows.map((r) => r.email);
}
