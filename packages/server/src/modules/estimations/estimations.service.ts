import {
  ESTIMATION_MAX_ROWS,
  ESTIMATION_MAX_TEXT_BYTES,
  type EstimationQuery,
  type EstimationResponse,
} from '@bvdb/contract';
import type { EstimationOptions } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import { checkJsonLines, checkTextBytes, type UploadedBytes } from '../../lib/upload-reader.js';
import { createUploadTaskPool } from '../../lib/upload-task-pool.js';
import type { ColumnMapping } from './estimation-input.js';

/** One request's work; `xlsx`: answer the report as a workbook instead of JSON. */
export type EstimationTask = { xlsx: boolean } & (
  | { kind: 'json'; body: unknown }
  | { kind: 'text'; text: string; tsv: boolean; mapping: ColumnMapping; options: Partial<EstimationOptions> }
  | ({ kind: 'file'; mapping: ColumnMapping; options: Partial<EstimationOptions> } & UploadedBytes)
);

/**
 * Threads for the estimations: the domain bounds one task's bootstrap (results × resamples, decision
 * 086: a few seconds at most) and one client runs one at a time (plugins/computation-gate.ts); the
 * time and heap limits end a thread that goes past them.
 */
export const createEstimationPool = () =>
  createUploadTaskPool<EstimationTask, EstimationResponse | Uint8Array>({
    from: import.meta.url,
    file: './estimation.thread.js',
    timeoutMs: 30_000,
    heapMb: 512,
    work: 'The estimation',
    tooLongHint: 'send fewer rows or fewer bootstrap resamples',
    tooLarge: 'The estimation',
    busy: 'The estimation service is busy; try again in a few seconds.',
  });
export type EstimationPool = ReturnType<typeof createEstimationPool>;

/** Options of a file upload, from the query string (a JSON body carries its own). */
export function optionsFromQuery(q: EstimationQuery): Partial<EstimationOptions> {
  const o: Partial<EstimationOptions> = {};
  if (q.alpha !== undefined) o.alpha = q.alpha;
  if (q.replicate_outlier) o.replicate_outlier = q.replicate_outlier;
  if (q.sample_outlier) o.sample_outlier = q.sample_outlier === 'true';
  if (q.reed) o.reed = q.reed === 'true';
  if ((q.bootstrap_replicates === undefined) !== (q.bootstrap_seed === undefined)) {
    throw new AppError('bad_request', 'Give both bootstrap_replicates and bootstrap_seed, or neither');
  }
  if (q.bootstrap_replicates !== undefined && q.bootstrap_seed !== undefined) {
    o.bootstrap = { replicates: q.bootstrap_replicates, seed: q.bootstrap_seed };
  }
  return o;
}

export function mappingFromQuery(q: EstimationQuery): ColumnMapping {
  const m: ColumnMapping = {};
  if (q.subject_column) m.subject = q.subject_column;
  if (q.sample_column) m.sample = q.sample_column;
  if (q.replicate_column) m.replicate = q.replicate_column;
  if (q.value_column) m.value = q.value_column;
  if (q.group_column) m.group = q.group_column;
  if (q.date_column) m.date = q.date_column;
  return m;
}

const isCell = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const JSON_SHAPE =
  'Send {"rows": [{"subject", "sample", "replicate", "value"}, ...], "options": {...}}, CSV text (Content-Type: text/csv) or a file (multipart/form-data, part "file")';

/**
 * Checked on the event loop before a JSON body is cloned into a thread: an object with a `rows`
 * array of at most ESTIMATION_MAX_ROWS flat objects of plain values (422 past the count).
 */
export function checkJsonShape(body: unknown): void {
  const { options } = checkJsonLines(body, {
    key: 'rows',
    max: ESTIMATION_MAX_ROWS,
    tooMany: (n) =>
      `${n.toLocaleString('en')} rows: at most ${ESTIMATION_MAX_ROWS.toLocaleString('en')} per estimation`,
    send: JSON_SHAPE,
    noArray: `No "rows" array. ${JSON_SHAPE}`,
    empty: 'The body has no rows',
    line: (row, i) => {
      if (!row || typeof row !== 'object' || Array.isArray(row) || !Object.values(row).every(isCell)) {
        throw new AppError(
          'bad_request',
          `Row ${i}: must be an object of subject, sample, replicate, value (plain values)`,
        );
      }
    },
  });
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new AppError('bad_request', '"options" must be an object');
  }
}

/** 413 past the text limit by the text's own length (the body limit catches a declared length first). */
export const checkTextSize = (text: string) => checkTextBytes(text, ESTIMATION_MAX_TEXT_BYTES);

/** The estimation of one request, on a pool thread. */
export const estimateOffThread = (pool: EstimationPool, task: EstimationTask) => pool.run(task);
