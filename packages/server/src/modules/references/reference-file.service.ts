import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Reference } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import type { references } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { FileCache } from '../../lib/file-cache.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { uploadedFileName } from '../../lib/uploaded-file-name.js';
import { writeTransaction } from '../../lib/write-transaction.js';
import { recordAudit } from '../audit/index.js';
import * as files from './reference-file.repository.js';
import { auditSnapshot, presentReference } from './references.presenter.js';
import * as repo from './references.repository.js';

export const PDF_TYPE = 'application/pdf';
/** Read size when streaming a stored file out of the database. */
export const FILE_CHUNK_BYTES = 256 * 1024;
const PDF_MAGIC = Buffer.from('%PDF-', 'ascii');

/** A PDF by its content, not its name: the file must begin with the `%PDF-` signature. */
function looksLikePdf(bytes: Buffer): boolean {
  return bytes.length > PDF_MAGIC.length && bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC);
}

/** The name as the uploader's system had it, minus any folder, control characters and excess length. */
export function cleanFileName(name: string | undefined): string {
  const cleaned = uploadedFileName(name);
  if (!cleaned) return 'article.pdf';
  return /\.pdf$/i.test(cleaned) ? cleaned : `${cleaned}.pdf`;
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
  const row = await repo.setArticleFile(tx, before.id, file);
  await recordAudit(tx, {
    userId,
    entity: 'reference',
    entityId: before.id,
    action: 'update',
    before: auditSnapshot(before),
    after: { ...auditSnapshot(row), ...auditExtra },
  });
  return presentReference(row, await repo.countAllDatasetsOfReference(tx, before.id));
}

/** The name of a reference's file copies in the file cache. */
export const fileCopyGroup = (id: number) => `reference-${id}`;

/**
 * Article files are kept in the database (reference_files; one per reference), so a backup holds
 * them; downloads are served from a derived copy on disk (`copies`, decision 032).
 */
export class ReferenceFileService {
  constructor(
    private readonly deps: Pick<ServiceDeps, 'db' | 'cache' | 'log'>,
    private readonly copies: FileCache,
  ) {}

  /** Name, type, size and hash of the stored file of a reference, if it has one (not its bytes). */
  describe(id: number) {
    return files.findReferenceFileInfo(this.deps.db, id);
  }

  /**
   * The bytes of a stored file in pieces of `FILE_CHUNK_BYTES`, each its own short query: a large
   * PDF never holds the database or the event loop for long, so other requests run in between.
   * Throws if the file is replaced or deleted mid-way (the download then ends short of its length).
   */
  async *chunks(id: number, sha256: string, size: number): AsyncGenerator<Buffer> {
    for (let offset = 0; offset < size; offset += FILE_CHUNK_BYTES) {
      const chunk = await files.readReferenceFileChunk(this.deps.db, id, sha256, offset, FILE_CHUNK_BYTES);
      if (!chunk) throw new Error(`The file of reference ${id} changed during the download`);
      yield chunk;
      // Let waiting requests run between pieces (the embedded database answers on this thread).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * The bytes of the stored file `file` (its current hash and size, just read from the database):
   * from its copy on disk, made on the first download, so later ones cost the event loop nothing
   * but the kernel's file reads. Straight from the database if no copy can be made.
   */
  async read(id: number, file: { sha256: string; size: number }): Promise<Readable> {
    const fromDatabase = () => this.chunks(id, file.sha256, file.size);
    try {
      const handle = await this.copies.open({ group: fileCopyGroup(id), ...file }, fromDatabase);
      return handle.createReadStream({ highWaterMark: 64 * 1024 });
    } catch (err) {
      this.deps.log.warn({ err, referenceId: id }, 'article file served from the database: no copy on disk');
      return Readable.from(fromDatabase());
    }
  }

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
    const reference = await writeTransaction(
      this.deps,
      async (tx) => {
        const before = await repo.lockReference(tx, id);
        if (!before) throw notFound(`Reference ${id}`);
        await files.saveReferenceFile(tx, id, {
          bytes: file.bytes,
          contentType: PDF_TYPE,
          fileName,
          size: file.bytes.length,
          sha256,
          createdAt: new Date(),
        });
        return setArticleFile(
          tx,
          before,
          userId,
          { name: fileName, key: sha256, type: PDF_TYPE },
          { article_file_size: file.bytes.length, article_file_sha256: sha256 },
        );
      },
      ['references'],
    );
    // Copies are named by hash, so an old one could not be served; this only frees the disk.
    await this.copies.forget(fileCopyGroup(id));
    // The new copy is written now, from the bytes in hand: the first download then reads no 19 MB
    // out of the database on the event loop (a ~140 ms stall in the load figures). Best effort: a
    // download makes the copy itself if this one fails.
    try {
      const bytes = file.bytes;
      const handle = await this.copies.open(
        { group: fileCopyGroup(id), sha256, size: bytes.length },
        async function* () {
          yield bytes;
        },
      );
      await handle.close();
    } catch (err) {
      this.deps.log.warn({ err, referenceId: id }, 'no copy on disk of the new article file');
    }
    return reference;
  }

  async detach(id: number, userId: number): Promise<Reference> {
    const reference = await writeTransaction(
      this.deps,
      async (tx) => {
        const before = await repo.lockReference(tx, id);
        if (!before) throw notFound(`Reference ${id}`);
        await files.deleteReferenceFile(tx, id);
        return setArticleFile(tx, before, userId, null);
      },
      ['references'],
    );
    await this.copies.forget(fileCopyGroup(id));
    return reference;
  }
}
