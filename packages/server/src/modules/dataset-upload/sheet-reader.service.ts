/**
 * The module's file reader as a service for other modules (the estimation endpoint reads its .xlsx
 * uploads with it): the bounds checks of issue 25 before exceljs expands a workbook. No database.
 */
export {
  readUploadedSheet,
  SheetError,
  type CellValue,
  type Sheet,
  type SheetReadOptions,
} from './upload-sheet.js';
export { sheetFromDelimitedText, type DelimitedTextOptions } from './delimited-text.js';
