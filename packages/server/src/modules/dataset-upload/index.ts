// The dataset-upload module's face (decision 077): what the rest of the server may use of it,
// among which the reading of an uploaded sheet (xlsx, csv, tsv) the other uploads share.
export { registerDatasetUploadRoutes } from './dataset-upload.routes.js';
export {
  readUploadedSheet,
  SheetError,
  type CellValue,
  type Sheet,
  type SheetReadOptions,
} from './upload-sheet.js';
export { sheetFromDelimitedText, type DelimitedTextOptions } from './delimited-text.js';
export { streamUploadedSheet, type SheetStreamVisitor } from './upload-sheet-stream.js';
