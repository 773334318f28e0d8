import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { referenceFiles } from '../../db/schema.js';

type StoredFile = Omit<typeof referenceFiles.$inferInsert, 'referenceId'>;

export async function findReferenceFile(db: DbOrTx, referenceId: number) {
  const [row] = await db.select().from(referenceFiles).where(eq(referenceFiles.referenceId, referenceId));
  return row;
}

/** What is known of a stored file, without its bytes. */
export async function findReferenceFileInfo(db: DbOrTx, referenceId: number) {
  const [row] = await db
    .select({
      contentType: referenceFiles.contentType,
      fileName: referenceFiles.fileName,
      size: referenceFiles.size,
      sha256: referenceFiles.sha256,
    })
    .from(referenceFiles)
    .where(eq(referenceFiles.referenceId, referenceId));
  return row;
}

/**
 * `length` bytes of the stored file from `offset` (0-based), or undefined when the file is gone or
 * was replaced (its sha256 differs) since the download began.
 */
export async function readReferenceFileChunk(
  db: DbOrTx,
  referenceId: number,
  sha256: string,
  offset: number,
  length: number,
): Promise<Buffer | undefined> {
  // As base64 text: both drivers decode bytea from hex in JavaScript, several times slower than
  // Node's native base64 decoder (which also skips the line breaks `encode` puts in).
  const [row] = await db
    .select({
      chunk: sql<string>`encode(substring(${referenceFiles.bytes} from ${offset + 1} for ${length}), 'base64')`,
    })
    .from(referenceFiles)
    .where(and(eq(referenceFiles.referenceId, referenceId), eq(referenceFiles.sha256, sha256)));
  return row ? Buffer.from(row.chunk, 'base64') : undefined;
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
