import { CsvError, parse } from 'csv-parse/sync';
import { AppError } from '../../lib/app-error.js';
import type { Sheet } from './upload-sheet.js';

export interface DelimitedTextOptions {
  delimiter: ',' | ';' | '\t';
  /** Rows past this many (after the header) are not parsed: the caller refuses the text. */
  maxRows: number;
  /** The message when there is no header: what the body should hold. */
  emptyMessage: string;
}

/**
 * Pasted or posted delimited text (CSV, semicolons, TSV) → a sheet (header row 1), as the menu and
 * the estimation endpoints read it: a BOM dropped, short rows padded, any line ending, blank rows
 * left out (each keeps its line number), and stray quotes in TSV taken as text (spreadsheets paste
 * them). At most `maxRows` + 1 rows are parsed; `records` says how many were (blank ones too), so
 * the caller can refuse a longer text without reading all of it. Errors are 400s with a message.
 */
export function sheetFromDelimitedText(
  text: string,
  { delimiter, maxRows, emptyMessage }: DelimitedTextOptions,
): { sheet: Sheet; records: number } {
  if (text.includes('\u0000')) throw new AppError('bad_request', 'The body is not text (it holds NUL bytes)');
  let table: string[][];
  try {
    table = parse(text, {
      bom: true,
      delimiter,
      relax_column_count: true,
      relax_quotes: delimiter === '\t',
      record_delimiter: ['\r\n', '\n', '\r'],
      to: maxRows + 2,
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    throw new AppError(
      'bad_request',
      `The ${delimiter === '\t' ? 'TSV' : 'CSV'} text could not be read: ${err.message}`,
    );
  }
  const [head, ...body] = table;
  if (!head || head.every((h) => !h.trim())) throw new AppError('bad_request', emptyMessage);
  const rows = body
    .map((cells, i) => ({ row: i + 2, cells: head.map((_, c) => cells[c] ?? null) }))
    .filter((r) => r.cells.some((c) => c !== null && c.trim() !== ''));
  return { sheet: { headers: head.map((h) => h.trim()), rows }, records: body.length };
}
