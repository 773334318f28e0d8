import type { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { AppError } from '../../lib/app-error.js';
import { loadExcel } from '../../lib/excel.js';
import { SheetError } from './sheet-error.js';
import { plain, type CellValue } from './upload-sheet.js';
import { SHEET_MAX_COLUMNS } from './xlsx-bounds.js';
import { inflateStream, listEntries, type ZipEntry } from './xlsx-zip.js';

/**
 * A large .xlsx read row by row (issue 46: an extract of up to 1,000,000 rows), never expanded
 * whole: the sheet's XML is unpacked and parsed a piece at a time and each row handed on and let
 * go, so memory holds the shared texts and what the caller keeps, not the workbook.
 *
 * exceljs's streaming WorkbookReader (4.4.0, pinned) reads a zip's members in the order they are
 * stored, and writes a sheet stored before the shared texts (as Excel stores them) to a temporary
 * file — an upload must reach no disk (46.4). So its parts are driven here in the order they are
 * needed, each from the upload's bytes in memory: the relations, the workbook, the styles (which
 * cells are dates), the shared texts, then the one sheet read.
 */

/** What a workbook may declare once unpacked: a sheet of 1,000,000 rows of seven columns is ~300 MB. */
export const XLSX_STREAM_MAX_UNZIPPED_BYTES = 1024 * 1024 * 1024;
/** The shared texts are kept whole while the sheet is read: 1,000,000 distinct ids are ~30 MB. */
export const XLSX_STREAM_MAX_SHARED_STRINGS_BYTES = 256 * 1024 * 1024;

/** The parts of exceljs's WorkbookReader driven here (its own methods, as 4.4.0 has them). */
interface WorkbookReaderParts {
  model?: { sheets?: { name: string; rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
  sharedStrings?: unknown[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(
    iterator: Readable,
    sheetNo: string,
  ): Generator<{ eventType: string; value: AsyncIterable<ExcelJS.Row> }>;
}

export interface SheetStreamOptions {
  /** The sheet of that name, else the first sheet. */
  sheet: string;
}

/** The header (row 1, empty when row 1 is), then each non-blank row with its spreadsheet number. */
export interface SheetStreamVisitor {
  header(headers: string[]): void;
  row(row: number, cells: CellValue[]): void;
}

const isBlank = (cells: CellValue[]) =>
  cells.every((c) => c === null || (typeof c === 'string' && !c.trim()));
const headerText = (v: CellValue) =>
  v === null ? '' : v instanceof Date ? v.toISOString() : String(v).trim();

function sheetPath(target: string): string {
  const t = target.replace(/^\//, '');
  return t.startsWith('xl/') ? t : `xl/${t}`;
}

/**
 * Reads an .xlsx's sheet a row at a time into `visit` (which may throw to stop). A file that is not
 * a readable workbook, or declares more than it may hold, is a SheetError (400, or 413 when too large).
 */
export async function streamUploadedSheet(
  bytes: Buffer,
  opts: SheetStreamOptions,
  visit: SheetStreamVisitor,
): Promise<void> {
  const entries = new Map<string, ZipEntry>();
  for (const e of listEntries(bytes, XLSX_STREAM_MAX_UNZIPPED_BYTES)) entries.set(e.name, e);
  const part = (name: string) => {
    const e = entries.get(name);
    return e ? inflateStream(bytes, e) : null;
  };
  const ExcelJS = await loadExcel();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(undefined as unknown as Readable, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  }) as unknown as WorkbookReaderParts;
  let started = false;
  try {
    const rels = part('xl/_rels/workbook.xml.rels');
    const book = part('xl/workbook.xml');
    if (!rels || !book) throw new SheetError('The file is not an .xlsx workbook: it has no sheets.');
    await reader._parseRels(rels);
    await reader._parseWorkbook(book);
    const styles = part('xl/styles.xml');
    if (styles) await reader._parseStyles(styles);
    const shared = entries.get('xl/sharedStrings.xml');
    if (shared) {
      if (shared.size > XLSX_STREAM_MAX_SHARED_STRINGS_BYTES) {
        throw new SheetError(
          `The workbook's texts take more than ${XLSX_STREAM_MAX_SHARED_STRINGS_BYTES / 1024 / 1024} MB: send fewer rows.`,
          true,
        );
      }
      // Kept by the reader ('cache'): nothing is yielded.
      for await (const _ of reader._parseSharedStrings(inflateStream(bytes, shared))) continue;
    } else reader.sharedStrings = [];
    const sheets = reader.model?.sheets ?? [];
    const chosen = sheets.find((s) => s.name === opts.sheet) ?? sheets[0];
    const target = reader.workbookRels?.find((r) => r.Id === chosen?.rId)?.Target;
    const path = target ? sheetPath(target) : undefined;
    const sheet = path ? entries.get(path) : undefined;
    if (!sheet || !path) throw new SheetError('The workbook has no sheet.');
    const sheetNo = /sheet(\d+)\.xml$/i.exec(path)?.[1] ?? '1';
    const [event] = [...reader._parseWorksheet(inflateStream(bytes, sheet), sheetNo)];
    if (!event) throw new SheetError('The workbook has no sheet.');
    let width = 0;
    for await (const row of event.value) {
      const values = row.values as ExcelJS.CellValue[];
      if (!started) {
        started = true;
        const header = row.number === 1 ? values : [];
        const headers = Array.from({ length: Math.max(0, header.length - 1) }, (_, c) =>
          headerText(plain(header[c + 1] ?? null)),
        );
        while (headers.length > 0 && headers.at(-1) === '') headers.pop();
        if (headers.length > SHEET_MAX_COLUMNS) {
          throw new SheetError(
            `The header has ${headers.length.toLocaleString('en-GB')} columns: at most ${SHEET_MAX_COLUMNS} are read.`,
          );
        }
        width = headers.length;
        visit.header(headers);
        if (row.number === 1) continue;
      }
      const cells = Array.from({ length: width }, (_, c) => plain(values[c + 1] ?? null));
      if (!isBlank(cells)) visit.row(row.number, cells);
    }
    if (!started) visit.header([]);
  } catch (err) {
    // The visitor's own refusals (too many rows, no such column) pass as they are.
    if (err instanceof SheetError || err instanceof AppError) throw err;
    throw new SheetError('The file is not a readable .xlsx workbook (damaged or incomplete). Save it again.');
  }
}
