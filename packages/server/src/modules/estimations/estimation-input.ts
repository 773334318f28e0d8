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

const REQUIRED: readonly EstimationColumn[] = ['subject', 'sample', 'value'];
const squash = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');
const MISSING_TEXT = new Set(['', 'na', 'n/a', 'nan', 'null', '.', '-', '—']);

/** Which header each column is read from: the caller's mapping first, else a common name. */
export function mapColumns(
  headers: readonly string[],
  mapping: ColumnMapping,
): Record<EstimationColumn, number> {
  const found = {} as Record<EstimationColumn, number>;
  const used = new Set<number>();
  for (const column of ESTIMATION_COLUMNS) {
    const asked = mapping[column];
    if (asked === undefined || asked === '') continue;
    const i = headers.findIndex((h) => h === asked) ?? -1;
    const j = i >= 0 ? i : headers.findIndex((h) => squash(h) === squash(asked));
    if (j < 0) {
      throw new AppError(
        'bad_request',
        `The ${column} column "${asked}" is not in the header (${headers.map((h) => `"${h}"`).join(', ')})`,
        { fields: [{ path: `${column}_column`, message: 'not in the header' }] },
      );
    }
    found[column] = j;
    used.add(j);
  }
  for (const column of ESTIMATION_COLUMNS) {
    if (found[column] !== undefined) continue;
    const aliases = ESTIMATION_HEADER_ALIASES[column];
    for (const alias of aliases) {
      const j = headers.findIndex((h, k) => !used.has(k) && squash(h) === alias);
      if (j >= 0) {
        found[column] = j;
        used.add(j);
        break;
      }
    }
  }
  const lacking = REQUIRED.filter((c) => found[c] === undefined);
  if (lacking.length > 0) {
    throw new AppError(
      'bad_request',
      `No ${lacking.join(', ')} column: the header is ${headers.map((h) => `"${h}"`).join(', ') || 'empty'}. ` +
        `Name the columns subject, sample, replicate, value (group and date optional), or map them with ` +
        lacking.map((c) => `${c}_column`).join(', '),
      { fields: lacking.map((c) => ({ path: `${c}_column`, message: 'no column found' })) },
    );
  }
  return found;
}

function label(cell: CellValue): string {
  if (cell === null) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
}

/** "5,1" → "5.1" when decimal commas are allowed: one comma between digits, no point. */
const DECIMAL_COMMA = /^[-+]?\d+,\d+([eE][-+]?\d+)?$/;

function valueOf(cell: CellValue, where: string, decimalComma = false): number | null {
  if (cell === null) return null;
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : null;
  if (typeof cell === 'boolean' || cell instanceof Date) {
    throw new AppError('bad_request', `${where}: "${label(cell)}" is not a number`);
  }
  const typed = cell.trim();
  const text = decimalComma && DECIMAL_COMMA.test(typed) ? typed.replace(',', '.') : typed;
  if (MISSING_TEXT.has(text.toLowerCase())) return null;
  const n = Number(text);
  if (!Number.isFinite(n) || !/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) {
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
    const subject = label(cells[at.subject] ?? null);
    const sample = label(cells[at.sample] ?? null);
    if (!subject)
      throw new AppError('bad_request', `Row ${row}, column ${header('subject')}: the subject is empty`);
    if (!sample)
      throw new AppError('bad_request', `Row ${row}, column ${header('sample')}: the sample is empty`);
    const key = `${subject}\u0001${sample}`;
    const n = (replicateCounter.get(key) ?? 0) + 1;
    replicateCounter.set(key, n);
    const replicate =
      at.replicate !== undefined ? label(cells[at.replicate] ?? null) || String(n) : String(n);
    const group = at.group !== undefined ? label(cells[at.group] ?? null) : '';
    const cell = cells[at.value] ?? null;
    if (decimalComma && typeof cell === 'string' && DECIMAL_COMMA.test(cell.trim())) commas++;
    const value = valueOf(cell, `Row ${row}, column ${header('value')}`, decimalComma);
    rows.push({ subject, sample, replicate, value, ...(group ? { group } : {}) });
    lines.push(row);
    if (at.date !== undefined) dates.push(label(cells[at.date] ?? null));
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
