// The exports module's face (decision 077): what the rest of the server may use of it.
export { registerExportRoutes } from './exports.routes.js';
export { csvReleaseHeaders } from './exports.service.js';
export { buildCsvOffThread, buildTableOffThread, buildWorkbookOffThread } from './export-worker.js';
export { DATASET_COLUMNS, exportCell } from './export-columns.js';
export { tableToCsv, type TableFileInput } from './table-file.js';
