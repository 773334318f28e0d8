import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { referenceFiles } from '../../db/schema.js';

type StoredFile = Omit<typeof referenceFiles.$inferInsert, 'referenceId'>;

export async function findReferenceFile(db: DbOrTx, referenceId: number) {
  const [row] = await db.select().from(referenceFiles).where(eq(referenceFiles.referenceId, referenceId));
  return row;
}

/** One file per reference: a new upload replaces the old one. */
export async function saveReferenceFile(tx: DbOrTx, referenceId: number, file: StoredFile): Promise<void> {
  await tx
    .insert(referenceFiles)
    .values({ referenceId, ...file })
    .onConflictDoUpdate({ target: referenceFiles.referenceId, set: file });
}

export async function deleteReferenceFile(tx: DbOrTx, referenceId: number): Promise<void> {
  await tx.delete(referenceFiles).where(eq(referenceFiles.referenceId, referenceId));
}
