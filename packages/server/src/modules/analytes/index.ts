// The analytes module's face (decision 077): what the rest of the server may use of it.
export { registerAnalyteRoutes } from './analytes.routes.js';
export {
  findAnalyte,
  findAnalytesByIds,
  findAnalyteWithCount,
  hasDemoMeasurands,
  listAllAnalytes,
  listPublishedDatasetOwners,
  presentWithCounts,
  withCountsJson,
  withDatasetCounts,
} from './analytes.service.js';
export { presentAnalyte } from './analytes.presenter.js';
export { alternativeNamesByMeasurand } from './measurand-names.service.js';
export { codesByMeasurand, resolveCode } from './measurand-codes.service.js';
export { buildCrosswalkCsv, loincNoticeHeader } from './measurand-crosswalk.service.js';
