import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { bvSpecifications, datasetRawFiles, users } from '../../db/schema.js';

export type StoredRawFile = Omit<typeof datasetRawFiles.$inferInsert, 'bvSpecificationId'>;

/** Whether the dataset is there, held against a concurrent delete until the transaction ends. */
export async function holdDataset(tx: DbOrTx, datasetId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: bvSpecifications.id })
    .from(bvSpecifications)
    .where(eq(bvSpecifications.id, datasetId))
    .for('share');
  return rows.length > 0;
}

/** What is known of the file (not its bytes), with the uploader's e-mail. */
export async function findRawFileInfo(db: DbOrTx, datasetId: number) {
  const [row] = await db
    .select({
      fileName: datasetRawFiles.fileName,
      contentType: datasetRawFiles.contentType,
      size: datasetRawFiles.size,
      sha256: datasetRawFiles.sha256,
      createdAt: datasetRawFiles.createdAt,
      uploadedBy: users.email,
    })
    .from(datasetRawFiles)
    .leftJoin(users, eq(users.id, datasetRawFiles.uploadedBy))
    .where(eq(datasetRawFiles.bvSpecificationId, datasetId));
  return row;
}

/** The file with its bytes (at most a few MB: the estimator's own upload limit). */
export async function findRawFile(db: DbOrTx, datasetId: number) {
  const [row] = await db
    .select({
      fileName: datasetRawFiles.fileName,
      contentType: datasetRawFiles.contentType,
      sha256: datasetRawFiles.sha256,
      // As base64 text: both drivers decode bytea from hex in JavaScript, slower than Node's base64.
      bytes: sql<string>`encode(${datasetRawFiles.bytes}, 'base64')`,
    })
    .from(datasetRawFiles)
    .where(eq(datasetRawFiles.bvSpecificationId, datasetId));
  return row ? { ...row, bytes: Buffer.from(row.bytes, 'base64') } : undefined;
}

/** One file per dataset: a new upload replaces the old one. */
export async function saveRawFile(tx: DbOrTx, datasetId: number, file: StoredRawFile): Promise<void> {
  await tx
    .insert(datasetRawFiles)
    .values({ bvSpecificationId: datasetId, ...file })
    .onConflictDoUpdate({ target: datasetRawFiles.bvSpecificationId, set: file });
}

export async function deleteRawFile(tx: DbOrTx, datasetId: number): Promise<void> {
  await tx.delete(datasetRawFiles).where(eq(datasetRawFiles.bvSpecificationId, datasetId));
}
