import { DATASET_TEMPLATE_SHEET, DATASET_UPLOAD_MAX_ROWS } from '@bvdb/contract';
import { parse as parseCsv } from 'csv-parse/sync';
import ExcelJS from 'exceljs';

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

/** A file that cannot be read as a sheet: a 400 with this message (or 413 when `tooLarge`). */
export class SheetError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}

/** What a filled template may expand to once unzipped (a 5,000-row sheet is a few MB). */
const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;

/**
 * The sizes a zip file declares for its members, from its central directory: a truncated file has
 * none (its end record is missing), and a zip bomb declares more than a template could hold. Read
 * before the workbook library inflates anything.
 */
function checkZip(bytes: Buffer): void {
  const truncated = () =>
    new SheetError(
      'The file is incomplete (truncated?): it is not a readable .xlsx workbook. Save it again.',
    );
  const min = Math.max(0, bytes.length - 65_557);
  let end = -1;
  for (let i = bytes.length - 22; i >= min; i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw truncated();
  const entries = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) throw truncated();
    total += bytes.readUInt32LE(at + 24);
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  if (total > MAX_UNZIPPED_BYTES) {
    throw new SheetError(
      'The workbook is too large once unpacked: upload at most a few thousand rows.',
      true,
    );
  }
}

/** The plain value of an exceljs cell (formulas by their result, rich text as text). */
function plain(value: ExcelJS.CellValue): CellValue {
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

function tooManyRows(count: number): SheetError {
  return new SheetError(
    `The file has ${count} rows of data; at most ${DATASET_UPLOAD_MAX_ROWS} are read at once: split it.`,
  );
}

async function readXlsx(bytes: Buffer): Promise<Sheet> {
  checkZip(bytes);
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new SheetError('The file is not a readable .xlsx workbook (damaged or incomplete). Save it again.');
  }
  const ws = wb.getWorksheet(DATASET_TEMPLATE_SHEET) ?? wb.worksheets[0];
  if (!ws) throw new SheetError('The workbook has no sheet.');
  const width = ws.columnCount;
  const headers: string[] = [];
  for (let c = 1; c <= width; c++) {
    const v = plain(ws.getRow(1).getCell(c).value);
    headers.push(v === null ? '' : v instanceof Date ? v.toISOString() : String(v).trim());
  }
  const rows: SheetRow[] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const cells: CellValue[] = [];
    for (let c = 1; c <= width; c++) cells.push(plain(row.getCell(c).value));
    if (isBlank(cells)) continue;
    rows.push({ row: r, cells });
    if (rows.length > DATASET_UPLOAD_MAX_ROWS) throw tooManyRows(ws.actualRowCount - 1);
  }
  return { headers, rows };
}

function readCsv(bytes: Buffer): Sheet {
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
  if (rows.length > DATASET_UPLOAD_MAX_ROWS) throw tooManyRows(rows.length);
  return { headers: head.map((h) => h.trim()), rows };
}

/**
 * An uploaded file as header + rows: an .xlsx workbook (the template's "Datasets" sheet, or the first
 * sheet), or a CSV text. Anything else, a damaged or truncated workbook, or one that would unpack to
 * far more than a template could hold, is refused before it is read.
 */
export async function readUploadedSheet(bytes: Buffer, fileName: string | undefined): Promise<Sheet> {
  const zip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;
  if (zip) return readXlsx(bytes);
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0xd0cf11e0) {
    throw new SheetError('This is an old Excel .xls file: save it as an .xlsx workbook and upload that.');
  }
  if (/\.xlsx$/i.test(fileName ?? '')) {
    throw new SheetError('The file is named .xlsx but is not an .xlsx workbook.');
  }
  if (/\.(csv|txt)$/i.test(fileName ?? '') || fileName === undefined) return readCsv(bytes);
  throw new SheetError('The file is not an .xlsx workbook (or a CSV file): use the template.');
}
