import { DATASET_TEMPLATE_SHEET, DATASET_UPLOAD_MAX_ROWS } from '@bvdb/contract';
import { parse as parseCsv } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import { loadExcel } from '../../lib/excel.js';
import { SheetError } from './sheet-error.js';
import { checkSharedStringsXml, checkSheetXml, checkWorkbookXml, SHEET_MAX_CELLS } from './xlsx-bounds.js';
import { checkZipEntries } from './xlsx-zip.js';

/** A cell as read: text, a number, a yes/no, a date or time, or empty. */
export type CellValue = string | number | boolean | Date | null;

export interface SheetRow {
  /** The spreadsheet's row number (the header is row 1). */
  row: number;
  cells: CellValue[];
}

export interface Sheet {
  headers: string[];
  rows: SheetRow[];
}

export { SheetError };

const isSheetPart = (name: string) => /^xl\/(worksheets|tables)\/[^/]+\.xml$/i.test(name);

/**
 * An .xlsx checked before the workbook library expands it (issue 25): the zip's parts by their
 * declared and actual sizes (xlsx-zip.ts), then the sheets, named ranges and shared texts by what
 * they declare (xlsx-bounds.ts): a 14 KB file declaring a cell at XFD1048576 once took 3 GB.
 */
function checkXlsx(bytes: Buffer): void {
  let cells = 0;
  checkZipEntries(bytes, (name, content) => {
    if (isSheetPart(name)) cells += checkSheetXml(content.toString('utf8'));
    else if (/^xl\/workbook\.xml$/i.test(name)) checkWorkbookXml(content.toString('utf8'));
    else if (/^xl\/sharedStrings\.xml$/i.test(name)) checkSharedStringsXml(content.toString('utf8'));
    if (cells > SHEET_MAX_CELLS) {
      throw new SheetError(
        `The workbook holds more than ${SHEET_MAX_CELLS.toLocaleString('en-GB')} cells: at most that many are read. Split the rows over several files.`,
      );
    }
  });
}

/** The plain value of an exceljs cell (formulas by their result, rich text as text). */
export function plain(value: ExcelJS.CellValue): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('result' in value) return plain(value.result ?? null);
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('error' in value) return String(value.error);
  }
  return null;
}

const isBlank = (cells: CellValue[]) =>
  cells.every((c) => c === null || (typeof c === 'string' && !c.trim()));

/** What to read: the sheet of that name (else the first sheet), and at most `maxRows` rows of data. */
export interface SheetReadOptions {
  sheet: string;
  maxRows: number;
}
const DATASET_SHEET: SheetReadOptions = { sheet: DATASET_TEMPLATE_SHEET, maxRows: DATASET_UPLOAD_MAX_ROWS };

function tooManyRows(count: number, max: number): SheetError {
  return new SheetError(`The file has ${count} rows of data; at most ${max} are read at once: split it.`);
}

async function readXlsx(bytes: Buffer, opts: SheetReadOptions): Promise<Sheet> {
  checkXlsx(bytes);
  const wb = new (await loadExcel()).Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new SheetError('The file is not a readable .xlsx workbook (damaged or incomplete). Save it again.');
  }
  const ws = wb.getWorksheet(opts.sheet) ?? wb.worksheets[0];
  if (!ws) throw new SheetError('The workbook has no sheet.');
  const width = ws.columnCount;
  // The cells a row holds (1-based, sparse): getCell would create every empty one.
  const cellsOf = (values: ExcelJS.CellValue[]) =>
    Array.from({ length: width }, (_, c) => plain(values[c + 1] ?? null));
  const headers = cellsOf(ws.getRow(1).values as ExcelJS.CellValue[]).map((v) =>
    v === null ? '' : v instanceof Date ? v.toISOString() : String(v).trim(),
  );
  const rows: SheetRow[] = [];
  ws.eachRow((row, r) => {
    if (r === 1) return;
    const cells = cellsOf(row.values as ExcelJS.CellValue[]);
    if (isBlank(cells)) return;
    rows.push({ row: r, cells });
    if (rows.length > opts.maxRows) throw tooManyRows(ws.actualRowCount - 1, opts.maxRows);
  });
  return { headers, rows };
}

function readCsv(bytes: Buffer, opts: SheetReadOptions): Sheet {
  const text = bytes.toString('utf8');
  if (text.includes('\u0000') || text.includes('\uFFFD')) {
    throw new SheetError('The file is neither an .xlsx workbook nor a UTF-8 CSV text.');
  }
  let records: string[][];
  try {
    const parsed: unknown = parseCsv(text, { bom: true, relax_column_count: true, skip_empty_lines: false });
    records = parsed as string[][];
  } catch (err) {
    throw new SheetError(`The CSV file cannot be read: ${(err as Error).message}`);
  }
  const [head, ...body] = records;
  if (!head) throw new SheetError('The file is empty.');
  const rows: SheetRow[] = [];
  body.forEach((cells, i) => {
    const values: CellValue[] = head.map((_, c) => cells[c] ?? null);
    if (!isBlank(values)) rows.push({ row: i + 2, cells: values });
  });
  if (rows.length > opts.maxRows) throw tooManyRows(rows.length, opts.maxRows);
  return { headers: head.map((h) => h.trim()), rows };
}

/**
 * An uploaded file as header + rows: an .xlsx workbook (the template's "Datasets" sheet, or the first
 * sheet), or a CSV text. Anything else, a damaged or truncated workbook, or one that would unpack to
 * far more than a template could hold, is refused before it is read.
 */
export async function readUploadedSheet(
  bytes: Buffer,
  fileName: string | undefined,
  opts: SheetReadOptions = DATASET_SHEET,
): Promise<Sheet> {
  const zip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
  if (zip) return readXlsx(bytes, opts);
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0xd0cf11e0) {
    throw new SheetError('This is an old Excel .xls file: save it as an .xlsx workbook and upload that.');
  }
  if (/\.xlsx$/i.test(fileName ?? '')) {
    throw new SheetError('The file is named .xlsx but is not an .xlsx workbook.');
  }
  if (/\.(csv|txt)$/i.test(fileName ?? '') || fileName === undefined) return readCsv(bytes, opts);
  throw new SheetError('The file is not an .xlsx workbook (or a CSV file): use the template.');
}
