import type ExcelJS from 'exceljs';

let loading: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded on the first spreadsheet (issue 44.5): with its ~250 CommonJS files it was a
 * fifth of what every start loaded before the server could answer, for a file few requests ask.
 */
export function loadExcel(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then((m) => m.default);
  return loading;
}
