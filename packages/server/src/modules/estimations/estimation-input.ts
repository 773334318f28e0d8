import {
  ESTIMATION_COLUMNS,
  ESTIMATION_HEADER_ALIASES,
  ESTIMATION_MAX_ROWS,
  EstimationJsonBodySchema,
  type EstimationColumn,
  type EstimationInputReport,
} from '@bvdb/contract';
import type { EstimationRow } from '@bvdb/domain';
import { AppError } from '../../lib/app-error.js';
import {
  cellText,
  DECIMAL_COMMA,
  mapUploadColumns,
  PLAIN_NUMBER,
  type UploadColumns,
} from '../../lib/upload-columns.js';
import { jsonLinesError } from '../../lib/upload-reader.js';
import { sheetFromDelimitedText, type CellValue, type Sheet } from '../dataset-upload/index.js';

/** Rows ready for the engine, each with the row number it came from, and how they were read. */
export interface ReadRows {
  rows: EstimationRow[];
  /** file row (header = 1) or JSON row (from 1) of each row */
  lines: number[];
  format: EstimationInputReport['format'];
  columns: Record<EstimationColumn, string | null>;
  notes: string[];
  /** the date/time cell of each row as text ('' when there is none), when a date column was read */
  dates?: string[];
}

export type ColumnMapping = Partial<Record<EstimationColumn, string>>;

const MISSING_TEXT = new Set(['', 'na', 'n/a', 'nan', 'null', '.', '-', '—']);

const COLUMNS: UploadColumns<EstimationColumn> = {
  columns: ESTIMATION_COLUMNS,
  aliases: ESTIMATION_HEADER_ALIASES,
  required: ['subject', 'sample', 'value'],
  nameThem: 'Name the columns subject, sample, replicate, value (group and date optional)',
};

/** Which header each column is read from: the caller's mapping first, else a common name. */
export const mapColumns = (headers: readonly string[], mapping: ColumnMapping) =>
  mapUploadColumns(headers, mapping, COLUMNS) as Record<EstimationColumn, number>;

function valueOf(cell: CellValue, where: string, decimalComma = false): number | null {
  if (cell === null) return null;
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell === 'boolean' || cell instanceof Date) {
    throw new AppError('bad_request', `${where}: "${cellText(cell)}" is not a number`);
  }
  const typed = cell.trim();
  const text = decimalComma && DECIMAL_COMMA.test(typed) ? typed.replace(',', '.') : typed;
  if (MISSING_TEXT.has(text.toLowerCase())) return null;
  const n = Number(text);
  if (!Number.isFinite(n) || !PLAIN_NUMBER.test(text)) {
    throw new AppError('bad_request', `${where}: "${text.slice(0, 40)}" is not a number`, {
      fields: [{ path: where, message: 'is not a number' }],
    });
  }
  return n;
}

function tooMany(count: number): AppError {
  return new AppError(
    'unprocessable',
    `${count.toLocaleString('en')} rows: at most ${ESTIMATION_MAX_ROWS.toLocaleString('en')} per estimation`,
  );
}

/** A sheet (file rows with their numbers) → the engine's rows, by the column mapping. */
export function rowsFromSheet(
  sheet: Sheet,
  mapping: ColumnMapping,
  format: ReadRows['format'],
  { decimalComma = false }: { decimalComma?: boolean } = {},
): ReadRows {
  let commas = 0;
  if (sheet.rows.length === 0) throw new AppError('bad_request', 'The file has a header but no rows of data');
  if (sheet.rows.length > ESTIMATION_MAX_ROWS) throw tooMany(sheet.rows.length);
  const at = mapColumns(sheet.headers, mapping);
  const notes: string[] = [];
  const replicateCounter = new Map<string, number>();
  const rows: EstimationRow[] = [];
  const lines: number[] = [];
  const dates: string[] = [];
  for (const { row, cells } of sheet.rows) {
    const header = (c: EstimationColumn) => sheet.headers[at[c]]!;
    const subject = cellText(cells[at.subject] ?? null);
    const sample = cellText(cells[at.sample] ?? null);
    if (!subject)
      throw new AppError('bad_request', `Row ${row}, column ${header('subject')}: the subject is empty`);
    if (!sample)
      throw new AppError('bad_request', `Row ${row}, column ${header('sample')}: the sample is empty`);
    const key = `${subject}\u0001${sample}`;
    const n = (replicateCounter.get(key) ?? 0) + 1;
    replicateCounter.set(key, n);
    const replicate =
      at.replicate !== undefined ? cellText(cells[at.replicate] ?? null) || String(n) : String(n);
    const group = at.group !== undefined ? cellText(cells[at.group] ?? null) : '';
    const cell = cells[at.value] ?? null;
    if (decimalComma && typeof cell === 'string' && DECIMAL_COMMA.test(cell.trim())) commas++;
    const value = valueOf(cell, `Row ${row}, column ${header('value')}`, decimalComma);
    rows.push({ subject, sample, replicate, value, ...(group ? { group } : {}) });
    lines.push(row);
    if (at.date !== undefined) dates.push(cellText(cells[at.date] ?? null));
  }
  if (at.replicate === undefined) {
    notes.push(
      'No replicate column: the rows of each subject × sample are numbered as replicates in file order.',
    );
  }
  if (commas > 0) {
    notes.push(
      `Decimal commas read as decimal points in ${commas.toLocaleString('en')} value${commas === 1 ? '' : 's'} (e.g. "5,1" as 5.1): the file's delimiter is ${format === 'tsv' ? 'a tab' : 'a semicolon'}, not a comma.`,
    );
  }
  if (at.date !== undefined) {
    notes.push(
      'The date column gives the sampling interval, study duration and times; samples are ordered by their label, not by date.',
    );
  }
  const columns = Object.fromEntries(
    ESTIMATION_COLUMNS.map((c) => [c, at[c] !== undefined ? sheet.headers[at[c]]! : null]),
  ) as Record<EstimationColumn, string | null>;
  return { rows, lines, format, columns, notes, ...(at.date !== undefined ? { dates } : {}) };
}

/** CSV or TSV text → a sheet (header row 1). */
export function sheetFromText(text: string, delimiter: ',' | '\t' | ';'): Sheet {
  const { sheet, records } = sheetFromDelimitedText(text, {
    delimiter,
    maxRows: ESTIMATION_MAX_ROWS,
    emptyMessage: 'The body is empty: send a header row and rows of data',
  });
  if (records > ESTIMATION_MAX_ROWS) throw tooMany(countLines(text) - 1);
  return sheet;
}

function countLines(text: string): number {
  let n = 0;
  for (const line of text.split(/\r\n|\n|\r/)) if (line.trim()) n++;
  return n;
}

/** A JSON body → rows, with the contract's messages by row. */
export function rowsFromJson(body: unknown): ReadRows & { options: unknown } {
  const parsed = EstimationJsonBodySchema.safeParse(body);
  if (!parsed.success) throw jsonLinesError(parsed.error.issues, 'rows');
  const rows: EstimationRow[] = [];
  const counter = new Map<string, number>();
  for (const r of parsed.data.rows) {
    const key = `${r.subject}\u0001${r.sample}`;
    const n = (counter.get(key) ?? 0) + 1;
    counter.set(key, n);
    rows.push({
      subject: r.subject,
      sample: r.sample,
      replicate: r.replicate === undefined ? String(n) : String(r.replicate),
      value: r.value,
      ...(r.group ? { group: r.group } : {}),
    });
  }
  const anyGroup = rows.some((r) => r.group);
  return {
    rows,
    lines: rows.map((_, i) => i + 1),
    format: 'json',
    columns: {
      subject: 'subject',
      sample: 'sample',
      replicate: 'replicate',
      value: 'value',
      group: anyGroup ? 'group' : null,
      date: null,
    },
    notes: [],
    options: parsed.data.options,
  };
}
