import { createHash } from 'node:crypto';
import type { Reference } from '@bvdb/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { referenceFiles, references } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { writeTransaction } from '../../lib/write-transaction.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { recordAudit } from '../audit/audit.service.js';
import { presentReference } from './references.presenter.js';
import { auditSnapshot, countAllDatasetsOfReference } from './reference-write.service.js';

export const PDF_TYPE = 'application/pdf';
const PDF_MAGIC = Buffer.from('%PDF-', 'ascii');

/** A PDF by its content, not its name: the file must begin with the `%PDF-` signature. */
export function looksLikePdf(bytes: Buffer): boolean {
  return bytes.length > PDF_MAGIC.length && bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC);
}

/** The name as the uploader's system had it, minus any folder, control characters and excess length. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 200);
  if (!cleaned || cleaned === '.' || cleaned === '..') return 'article.pdf';
  return /\.pdf$/i.test(cleaned) ? cleaned : `${cleaned}.pdf`;
}

/**
 * `attachment` with an ASCII fallback name and the exact name in RFC 5987 form, so no name can break
 * out of the header or smuggle a path.
 */
export function contentDisposition(name: string): string {
  const ascii =
    name
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .replace(/[^A-Za-z0-9._ -]+/g, '_')
      .trim() || 'article.pdf';
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export async function findReferenceFile(db: DbOrTx, referenceId: number) {
  const [row] = await db.select().from(referenceFiles).where(eq(referenceFiles.referenceId, referenceId));
  return row;
}

/** Article files are kept in the database (reference_files); one per reference. */
export class ReferenceFileService {
  constructor(private readonly app: FastifyInstance) {}

  async attach(
    id: number,
    file: { bytes: Buffer; fileName: string | undefined },
    userId: number,
  ): Promise<Reference> {
    if (!looksLikePdf(file.bytes)) {
      throw new AppError('unprocessable', 'Only PDF files can be attached (this file is not a PDF)', {
        fields: [{ path: 'file', message: 'The file is not a PDF' }],
      });
    }
    const fileName = cleanFileName(file.fileName);
    const sha256 = createHash('sha256').update(file.bytes).digest('hex');
    return writeTransaction(serviceDeps(this.app), async (tx) => {
      const [before] = await tx.select().from(references).where(eq(references.id, id)).for('update');
      if (!before) throw notFound(`Reference ${id}`);
      const stored = {
        bytes: file.bytes,
        contentType: PDF_TYPE,
        fileName,
        size: file.bytes.length,
        sha256,
        createdAt: new Date(),
      };
      await tx
        .insert(referenceFiles)
        .values({ referenceId: id, ...stored })
        .onConflictDoUpdate({ target: referenceFiles.referenceId, set: stored });
      return setArticleFile(
        tx,
        before,
        userId,
        { name: fileName, key: sha256, type: PDF_TYPE },
        {
          article_file_size: file.bytes.length,
          article_file_sha256: sha256,
        },
      );
    });
  }

  async detach(id: number, userId: number): Promise<Reference> {
    return writeTransaction(serviceDeps(this.app), async (tx) => {
      const [before] = await tx.select().from(references).where(eq(references.id, id)).for('update');
      if (!before) throw notFound(`Reference ${id}`);
      await tx.delete(referenceFiles).where(eq(referenceFiles.referenceId, id));
      return setArticleFile(tx, before, userId, null);
    });
  }
}

/**
 * Points the reference at its article file (or at none), as a new version with its audit entry.
 * Runs inside the caller's transaction, with `before` the locked row.
 */
async function setArticleFile(
  tx: DbOrTx,
  before: typeof references.$inferSelect,
  userId: number,
  file: { name: string; key: string; type: string } | null,
  auditExtra: Record<string, unknown> = {},
): Promise<Reference> {
  const [row] = await tx
    .update(references)
    .set({
      articleFileName: file?.name ?? null,
      articleFileKey: file?.key ?? null,
      articleFileType: file?.type ?? null,
      version: sql`${references.version} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(references.id, before.id))
    .returning();
  await recordAudit(tx, {
    userId,
    entity: 'reference',
    entityId: before.id,
    action: 'update',
    before: auditSnapshot(before),
    after: { ...auditSnapshot(row!), ...auditExtra },
  });
  return presentReference(row!, await countAllDatasetsOfReference(tx, before.id));
}
