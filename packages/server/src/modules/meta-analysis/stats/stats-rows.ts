import { StatsRowSchema, type StatsRow } from '@bvdb/contract';
import { CsvError, parse } from 'csv-parse/sync';
import { AppError } from '../../../lib/app-error.js';

const COLUMNS = ['ID', 'Include', 'Score', 'CV', 'CI_lower', 'CI_upper'] as const;
/** Rows per request, as the simulator's: a larger set is a batch job, not a request. */
export const MAX_STATS_ROWS = 10_000;

/** CSV text (with a header row) → row objects keyed by the header, as the R service reads them. */
function rowsFromCsv(text: string): Record<string, string>[] {
  let table: string[][];
  try {
    // Spreadsheets save \r\n, \n or \r line ends (some files mix them) and short rows.
    table = parse(text, { bom: true, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    throw new AppError('bad_request', `The CSV body could not be read: ${err.message}`);
  }
  const rows = table.filter((r) => r.some((c) => c.trim() !== ''));
  const header = rows[0]?.map((h) => h.trim());
  if (!header) throw new AppError('bad_request', 'The CSV body is empty');
  const missing = COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0)
    throw new AppError('bad_request', `The CSV header lacks column(s): ${missing.join(', ')}`);
  return rows.slice(1).map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
}

const SHAPE_MESSAGE =
  'Send the rows as a JSON array of objects, as {"rows": [...]}, or as CSV text (Content-Type: text/csv)';

/** The rows of a JSON body (an array, or `{rows}`), or null for any other value. */
function jsonRows(body: unknown): unknown[] | null {
  if (Array.isArray(body)) return body as unknown[];
  if (body && typeof body === 'object' && Array.isArray((body as { rows?: unknown }).rows)) {
    return (body as { rows: unknown[] }).rows;
  }
  return null;
}

function rawRows(body: unknown): unknown[] {
  if (typeof body === 'string') return rowsFromCsv(body);
  const rows = jsonRows(body);
  if (!rows) throw new AppError('bad_request', SHAPE_MESSAGE);
  return rows;
}

const isCell = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/**
 * Checked on the event loop before a JSON body goes to a pool thread: rows are flat objects of
 * plain values, so nothing nested (or too many rows) is ever cloned into a thread. CSV text is
 * checked in the thread, where it is parsed.
 */
export function checkStatsBodyShape(body: unknown): void {
  if (typeof body === 'string') return;
  const rows = jsonRows(body);
  if (!rows) throw new AppError('bad_request', SHAPE_MESSAGE);
  if (rows.length > MAX_STATS_ROWS) {
    throw new AppError(
      'unprocessable',
      `${rows.length.toLocaleString('en')} rows: at most ${MAX_STATS_ROWS.toLocaleString('en')} per request`,
    );
  }
  rows.forEach((row, i) => {
    if (!row || typeof row !== 'object' || Array.isArray(row)) {
      throw new AppError('bad_request', `Row ${i + 1}: must be an object of ${COLUMNS.join(', ')}`);
    }
    for (const [key, value] of Object.entries(row)) {
      if (!isCell(value)) {
        throw new AppError('bad_request', `Row ${i + 1}: ${key} must be a number, text, true/false or null`);
      }
    }
  });
}

/** The statistics service's rows from a JSON or CSV body; names the first bad row and field (rows from 1). */
export function parseStatsRows(body: unknown): StatsRow[] {
  const rows = rawRows(body);
  if (rows.length > MAX_STATS_ROWS) {
    throw new AppError(
      'unprocessable',
      `${rows.length.toLocaleString('en')} rows: at most ${MAX_STATS_ROWS.toLocaleString('en')} per request`,
    );
  }
  return rows.map((raw, i) => {
    const parsed = StatsRowSchema.safeParse(raw);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((issue) => ({
        path: `row ${i + 1}.${issue.path.join('.') || '(row)'}`,
        message: issue.message,
      }));
      throw new AppError(
        'bad_request',
        `Row ${i + 1}: ${fields.map((f) => `${f.path.split('.').slice(1).join('.')} ${f.message}`).join('; ')}`,
        { fields },
      );
    }
    return parsed.data;
  });
}
