import { DATASET_UPLOAD_MAX_ROWS } from '@bvdb/contract';
import { SheetError } from './sheet-error.js';

/** Columns read: the template has 70; a few more for a curator's notes. */
export const SHEET_MAX_COLUMNS = 100;
/** The last row read: twice the rows of data one upload takes, for blank rows between them. */
export const SHEET_MAX_ROW = 2 * DATASET_UPLOAD_MAX_ROWS;
/** Cells of all sheets: 5,000 rows of the template's 70 columns, and room to spare. */
export const SHEET_MAX_CELLS = 500_000;
/** Texts of the workbook's shared-strings table (each cell's text is one at most). */
export const SHEET_MAX_SHARED_STRINGS = 500_000;
/** Excel's own last column: a column format past it is not from a spreadsheet program. */
const EXCEL_COLUMNS = 16_384;

const n = (v: number) => v.toLocaleString('en-GB');

/** "XFD" → 16384 (letters only: the callers match them first). */
function columnNumber(letters: string): number {
  let col = 0;
  for (const ch of letters.toUpperCase()) col = col * 26 + ch.charCodeAt(0) - 64;
  return col;
}
const columnName = (col: number): string =>
  col <= 0 ? '' : columnName(Math.floor((col - 1) / 26)) + String.fromCharCode(65 + ((col - 1) % 26));

/** Every A1-style cell in a reference list ("A1", "B2:C9 E4", "Lists!$A$2:$A$40"). */
function* cellsOf(ref: string): Generator<{ col: number; row: number }> {
  // Not inside a longer name: "Sheet1!" or "LOG10(" are no cells.
  for (const m of ref.matchAll(/(?<![A-Za-z0-9_.])\$?([A-Za-z]{1,7})\$?(\d{1,12})(?![A-Za-z0-9_!('])/g)) {
    yield { col: columnNumber(m[1]!), row: Number(m[2]) };
  }
}

/** The bounds every sheet is held to; the first one passed names its limit. */
function checkCell(col: number, row: number, what: string): void {
  if (col > SHEET_MAX_COLUMNS) {
    throw new SheetError(
      `The sheet declares ${n(col)} columns (${what} reaches column ${columnName(Math.min(col, 1e6))}): at most ${SHEET_MAX_COLUMNS} are read. Clear the cells right of column ${columnName(SHEET_MAX_COLUMNS)} and save it again.`,
    );
  }
  if (row > SHEET_MAX_ROW) {
    throw new SheetError(
      `The sheet declares ${n(row)} rows (${what} reaches row ${n(row)}): at most ${n(SHEET_MAX_ROW)} are read. Clear the rows below ${n(SHEET_MAX_ROW)} (or split them over several files) and save it again.`,
    );
  }
}

const ATTR = {
  r: /(?<![\w:])r="([^"]*)"/,
  ref: /(?<![\w:])ref="([^"]*)"/,
  sqref: /(?<![\w:])sqref="([^"]*)"/,
  spans: /(?<![\w:])spans="([^"]*)"/,
  min: /(?<![\w:])min="([^"]*)"/,
  max: /(?<![\w:])max="([^"]*)"/,
};

const WHAT: Record<string, string> = {
  dimension: 'its used range',
  mergeCell: 'a merged range',
  dataValidation: 'a drop-down or validation rule',
  hyperlink: 'a link',
  selection: 'a selection',
  autoFilter: 'a filter',
  table: 'a table',
};

/**
 * A worksheet's XML (or a table's) scanned, without parsing it, for what a workbook library would
 * expand: cells and rows (by address, or counted when unnumbered), row spans, the used range, merged
 * ranges and validation ranges (expanded cell by cell), column formats (one object a column).
 * Returns the cells it holds.
 */
export function checkSheetXml(xml: string): number {
  let cells = 0;
  let row = 0;
  let col = 0;
  for (const tag of xml.matchAll(/<([A-Za-z]+)\b([^>]*)>/g)) {
    const [, name, attrs] = tag as unknown as [string, string, string];
    const attr = (key: keyof typeof ATTR) => ATTR[key].exec(attrs)?.[1];
    if (name === 'row') {
      row = Number(attr('r') ?? row + 1);
      col = 0;
      checkCell(0, row, 'a row');
      const spans = attr('spans');
      if (spans) for (const s of spans.split(/[\s:]+/)) checkCell(Number(s), row, 'a row’s span');
    } else if (name === 'c') {
      if (++cells > SHEET_MAX_CELLS) {
        throw new SheetError(
          `The sheet holds more than ${n(SHEET_MAX_CELLS)} cells: at most that many are read. Split the rows over several files.`,
        );
      }
      const r = attr('r');
      const at = r ? [...cellsOf(r)][0] : undefined;
      col = at ? at.col : col + 1;
      checkCell(col, at ? at.row : row, `cell ${r ?? `${columnName(col)}${row}`}`);
    } else if (name === 'col') {
      const max = Number(attr('max') ?? 0);
      if (max > EXCEL_COLUMNS || Number(attr('min') ?? 0) > EXCEL_COLUMNS) {
        throw new SheetError(
          `The sheet declares column formats up to column ${n(max)}: a spreadsheet has ${n(EXCEL_COLUMNS)} columns at most. Save it again from a spreadsheet program.`,
        );
      }
    } else if (WHAT[name]) {
      for (const key of ['ref', 'sqref'] as const) {
        const ref = attr(key);
        if (ref) for (const c of cellsOf(ref)) checkCell(c.col, c.row, WHAT[name]);
      }
    }
  }
  return cells;
}

/** The workbook's named ranges, which a workbook library marks cell by cell. */
export function checkWorkbookXml(xml: string): void {
  for (const m of xml.matchAll(/<definedName\b[^>]*>([^<]*)<\/definedName>/g)) {
    for (const c of cellsOf(m[1]!)) checkCell(c.col, c.row, 'a named range');
  }
}

/** The shared-strings table: its declared counts and the texts it holds. */
export function checkSharedStringsXml(xml: string): void {
  const head = /<sst\b([^>]*)>/.exec(xml)?.[1] ?? '';
  const declared = Math.max(
    ...[/\bcount="(\d+)"/, /\buniqueCount="(\d+)"/].map((re) => Number(re.exec(head)?.[1] ?? 0)),
  );
  const held = declared > SHEET_MAX_SHARED_STRINGS ? declared : (xml.match(/<si[\s>/]/g)?.length ?? 0);
  if (Math.max(declared, held) > SHEET_MAX_SHARED_STRINGS) {
    throw new SheetError(
      `The workbook declares ${n(Math.max(declared, held))} texts: at most ${n(SHEET_MAX_SHARED_STRINGS)} are read. Split the rows over several files.`,
    );
  }
}
