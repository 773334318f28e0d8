import {
  ESTIMATION_MAX_ROWS,
  ESTIMATION_MAX_TEXT_BYTES,
  type EstimationQuery,
  type EstimationResponse,
} from '@bvdb/contract';
import type { EstimationOptions } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import { WorkerPool } from '../../lib/worker-pool.js';
import type { ColumnMapping } from './estimation-input.js';

/** One request's work; `xlsx`: answer the report as a workbook instead of JSON. */
export type EstimationTask = { xlsx: boolean } & (
  | { kind: 'json'; body: unknown }
  | { kind: 'text'; text: string; tsv: boolean; mapping: ColumnMapping; options: Partial<EstimationOptions> }
  | {
      kind: 'file';
      bytes: Uint8Array;
      fileName: string | undefined;
      mapping: ColumnMapping;
      options: Partial<EstimationOptions>;
    }
);

/**
 * Threads for the estimations: a 10,000-row file with a 10,000-resample bootstrap is the longest
 * task allowed (a few seconds); the time and heap limits end a thread that goes past them.
 */
export const createEstimationPool = () =>
  new WorkerPool<EstimationTask, EstimationResponse | Uint8Array>({
    from: import.meta.url,
    file: './estimation.thread.js',
    timeoutMs: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: 512 },
    tooLong: {
      code: 'unprocessable',
      message: 'The estimation took too long (over 30 s): send fewer rows or fewer bootstrap resamples.',
    },
    tooLarge: {
      code: 'payload_too_large',
      message: 'The estimation needs too much memory: send fewer rows.',
    },
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
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError('bad_request', JSON_SHAPE);
  const { rows, options } = body as { rows?: unknown; options?: unknown };
  if (!Array.isArray(rows)) throw new AppError('bad_request', `No "rows" array. ${JSON_SHAPE}`);
  if (rows.length === 0) throw new AppError('bad_request', 'The body has no rows');
  if (rows.length > ESTIMATION_MAX_ROWS) {
    throw new AppError(
      'unprocessable',
      `${rows.length.toLocaleString('en')} rows: at most ${ESTIMATION_MAX_ROWS.toLocaleString('en')} per estimation`,
    );
  }
  rows.forEach((row: unknown, i) => {
    if (!row || typeof row !== 'object' || Array.isArray(row) || !Object.values(row).every(isCell)) {
      throw new AppError(
        'bad_request',
        `Row ${i + 1}: must be an object of subject, sample, replicate, value (plain values)`,
      );
    }
  });
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw new AppError('bad_request', '"options" must be an object');
  }
}

/** 413 past the text limit by the text's own length (the body limit catches a declared length first). */
export function checkTextSize(text: string): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > ESTIMATION_MAX_TEXT_BYTES) {
    throw new AppError(
      'payload_too_large',
      `The body is ${Math.ceil(bytes / 1024)} KB: at most ${ESTIMATION_MAX_TEXT_BYTES / 1024} KB`,
    );
  }
}

/** The estimation of one request, on a pool thread. */
export const estimateOffThread = (pool: EstimationPool, task: EstimationTask) => pool.run(task);
