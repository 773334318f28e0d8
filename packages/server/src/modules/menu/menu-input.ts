import {
  MENU_COLUMNS,
  MENU_HEADER_ALIASES,
  MENU_MAX_TESTS,
  MenuJsonBodySchema,
  MenuTestInputSchema,
  type MenuColumn,
  type MenuJsonBody,
  type MenuTestInput,
} from '@bvdb/contract';
import { AppError } from '../../lib/app-error.js';
import { jsonLinesError } from '../../lib/upload-reader.js';
import { sheetFromDelimitedText, type CellValue, type Sheet } from '../dataset-upload/index.js';

/** A menu line as read: where it came from and the test it names. */
export interface MenuLine {
  /** The test's place in the menu, from 1, the same in the answer, the page, the sheet and a kept link. */
  line: number;
  input: MenuTestInput;
}

export interface ReadMenu {
  lines: MenuLine[];
  level?: MenuJsonBody['level'];
  probability?: MenuJsonBody['probability'];
}

const squash = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');
const MISSING_TEXT = new Set(['', 'na', 'n/a', 'nan', 'null', '.', '-', '—']);
const NUMERIC: ReadonlySet<MenuColumn> = new Set(['cva', 'bias', 'te']);

/** 422: a menu of more tests than allowed. */
export function tooManyTests(count: number): AppError {
  return new AppError(
    'unprocessable',
    `${count.toLocaleString('en')} tests: at most ${MENU_MAX_TESTS} per menu`,
  );
}

/** Which header each column is read from: the first header that is one of the column's names. */
export function mapMenuColumns(headers: readonly string[]): Partial<Record<MenuColumn, number>> {
  const found: Partial<Record<MenuColumn, number>> = {};
  const used = new Set<number>();
  for (const column of MENU_COLUMNS) {
    for (const alias of MENU_HEADER_ALIASES[column]) {
      const j = headers.findIndex((h, k) => !used.has(k) && squash(h) === alias);
      if (j >= 0) {
        found[column] = j;
        used.add(j);
        break;
      }
    }
  }
  if (found.name === undefined && found.code === undefined) {
    throw new AppError(
      'bad_request',
      `No name or code column: the header is ${headers.map((h) => `"${h}"`).join(', ') || 'empty'}. ` +
        `Name the columns ${MENU_COLUMNS.join(', ')} (see the template)`,
    );
  }
  return found;
}

const text = (cell: CellValue | undefined): string => {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  return String(cell).trim();
};

/** A percentage cell: empty/NA is missing; "2,5" (a decimal comma) is read as 2.5; anything else a 400. */
function percentOf(cell: CellValue | undefined, where: string): number | undefined {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : undefined;
  const t = text(cell).replace(/%$/, '').trim();
  if (MISSING_TEXT.has(t.toLowerCase())) return undefined;
  const normal = /^[-+]?\d+,\d+$/.test(t) ? t.replace(',', '.') : t;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(normal)) {
    throw new AppError('bad_request', `${where}: "${t.slice(0, 40)}" is not a number`, {
      fields: [{ path: where, message: 'is not a number' }],
    });
  }
  return Number(normal);
}

/** A sheet (rows with their file row numbers) → menu lines numbered from 1; blank lines are skipped. */
export function linesFromSheet(sheet: Sheet): ReadMenu {
  if (sheet.rows.length > MENU_MAX_TESTS) throw tooManyTests(sheet.rows.length);
  const at = mapMenuColumns(sheet.headers);
  const lines: MenuLine[] = [];
  for (const { row, cells } of sheet.rows) {
    const raw: Record<string, unknown> = {};
    for (const column of MENU_COLUMNS) {
      const j = at[column];
      if (j === undefined) continue;
      const where = `Row ${row}, column ${sheet.headers[j]}`;
      if (NUMERIC.has(column)) {
        const n = percentOf(cells[j], where);
        if (n !== undefined) raw[column] = n;
      } else {
        const t = text(cells[j]);
        if (t) raw[column] = t;
      }
    }
    const parsed = MenuTestInputSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new AppError('bad_request', `Row ${row}: ${issue.path.join('.')} ${issue.message}`);
    }
    // Numbered 1…n as the tests come (issue 42.2): not the file's row, which counts the header.
    lines.push({ line: lines.length + 1, input: parsed.data });
  }
  if (lines.length === 0) throw new AppError('bad_request', 'The file has a header but no tests');
  return { lines };
}

/** CSV text → a sheet (header row 1); a semicolon-separated header (European spreadsheets) is recognised. */
export function sheetFromMenuText(body: string): Sheet {
  const first = body.slice(0, body.search(/\r|\n/) >>> 0 || body.length);
  const delimiter =
    first.includes(';') && !first.includes(',')
      ? ';'
      : first.includes('\t') && !first.includes(',')
        ? '\t'
        : ',';
  const { sheet } = sheetFromDelimitedText(body, {
    delimiter,
    maxRows: MENU_MAX_TESTS,
    emptyMessage: 'The body is empty: send a header row and one row per test',
  });
  if (sheet.rows.length > MENU_MAX_TESTS) throw tooManyTests(sheet.rows.length);
  return sheet;
}

/** A JSON body → menu lines, with the contract's messages by test (numbered from 1). */
export function linesFromJson(body: unknown): ReadMenu {
  const parsed = MenuJsonBodySchema.safeParse(body);
  if (!parsed.success) {
    const tooLong = parsed.error.issues.find((i) => i.code === 'too_big' && i.path.join('.') === 'tests');
    if (tooLong && Array.isArray((body as { tests?: unknown }).tests)) {
      throw tooManyTests((body as { tests: unknown[] }).tests.length);
    }
    throw jsonLinesError(
      parsed.error.issues,
      'tests',
      '. Send {"tests": [{"name", "code", "matrix", "unit", "cva", "bias", "te"}, ...]}',
    );
  }
  const { tests, level, probability } = parsed.data;
  return {
    lines: tests.map((input, i) => ({ line: i + 1, input })),
    ...(level ? { level } : {}),
    ...(probability !== undefined ? { probability } : {}),
  };
}
