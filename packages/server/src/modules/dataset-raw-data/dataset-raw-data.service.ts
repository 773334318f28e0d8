import { createHash } from 'node:crypto';
import type { DatasetRawData } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { recordAudit } from '../audit/index.js';
import { uploadedFileName } from '../../lib/uploaded-file-name.js';
import { presentRawData } from './dataset-raw-data.presenter.js';
import * as repo from './dataset-raw-data.repository.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * What the file is by its content: an .xlsx (a zip), or CSV/TSV text (UTF-8, no NUL byte), the
 * formats the estimator reads. Anything else is refused, so a download is never a surprise.
 */
export function rawFileKind(bytes: Buffer, fileName: string): { contentType: string; extension: string } {
  if (bytes.subarray(0, 4).equals(ZIP_MAGIC)) return { contentType: XLSX_TYPE, extension: '.xlsx' };
  const text = bytes.toString('utf8');
  if (!bytes.includes(0) && !text.includes('\uFFFD')) {
    const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
    const tsv = /\.tsv$/i.test(fileName) || (firstLine.includes('\t') && !firstLine.includes(','));
    return tsv
      ? { contentType: 'text/tab-separated-values; charset=utf-8', extension: '.tsv' }
      : { contentType: 'text/csv; charset=utf-8', extension: '.csv' };
  }
  throw new AppError(
    'unprocessable',
    'Keep the file the estimation read: a CSV or TSV text file, or an .xlsx workbook',
    {
      fields: [{ path: 'file', message: 'Not a CSV, TSV or .xlsx file' }],
    },
  );
}

/** The uploader's name for the file (cleaned as an article file's is), with the extension of its kind. */
export function cleanRawFileName(name: string | undefined, extension: string): string {
  const stem = uploadedFileName(name) || 'raw-data';
  return stem.toLowerCase().endsWith(extension) ? stem : `${stem}${extension}`;
}

/**
 * A dataset's raw results (issue 31.3, decision 062): staff only, kept in the database so a
 * complete backup holds them; no public answer, cache or export reads this table.
 */
export class DatasetRawDataService {
  constructor(private readonly deps: Pick<ServiceDeps, 'db'>) {}

  async describe(datasetId: number): Promise<DatasetRawData | null> {
    const info = await repo.findRawFileInfo(this.deps.db, datasetId);
    if (!info && !(await repo.holdDataset(this.deps.db, datasetId))) throw notFound(`Dataset ${datasetId}`);
    return presentRawData(info);
  }

  async read(datasetId: number) {
    const file = await repo.findRawFile(this.deps.db, datasetId);
    if (!file) throw notFound(`The raw-data file of dataset ${datasetId}`);
    return file;
  }

  async attach(
    datasetId: number,
    file: { bytes: Buffer; fileName: string | undefined },
    userId: number,
  ): Promise<DatasetRawData | null> {
    const kind = rawFileKind(file.bytes, file.fileName ?? '');
    const stored: repo.StoredRawFile = {
      bytes: file.bytes,
      contentType: kind.contentType,
      fileName: cleanRawFileName(file.fileName, kind.extension),
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      uploadedBy: userId,
      createdAt: new Date(),
    };
    return this.change(datasetId, userId, (tx) => repo.saveRawFile(tx, datasetId, stored));
  }

  async detach(datasetId: number, userId: number): Promise<DatasetRawData | null> {
    return this.change(datasetId, userId, (tx) => repo.deleteRawFile(tx, datasetId));
  }

  /**
   * One write of a dataset's file, with the dataset held against a concurrent delete and the change
   * in its audit trail (name, size, hash before and after; never the bytes). Answers the file now kept.
   */
  private change(datasetId: number, userId: number, write: (tx: DbOrTx) => Promise<void>) {
    return this.deps.db.transaction(async (tx) => {
      if (!(await repo.holdDataset(tx, datasetId))) throw notFound(`Dataset ${datasetId}`);
      const before = presentRawData(await repo.findRawFileInfo(tx, datasetId));
      await write(tx);
      const after = presentRawData(await repo.findRawFileInfo(tx, datasetId));
      if (before || after) {
        await recordAudit(tx, {
          userId,
          entity: 'bv_specification',
          entityId: datasetId,
          action: 'update',
          before: { raw_data: before },
          after: { raw_data: after },
        });
      }
      return after;
    });
  }
}
