// The datasets module's face (decision 077): what the rest of the server may use of it.
export { registerDatasetRoutes } from './datasets.routes.js';
export { registerDatasetWriteRoutes } from './dataset-write.routes.js';
export {
  findVisibleDataset,
  listPresentedDatasets,
  listPresentedDatasetsInPages,
  presentedDatasetPages,
} from './datasets.service.js';
export { CATALOGUE_JSON } from './catalogue-json.js';
export { applyFinalGrades, markInAppraisal } from './dataset-appraisal.service.js';
export { DatasetWriteService, identifierClashes } from './dataset-write.service.js';
export { warmUpBeforeReady } from './warm-up.js';
export { preparedRecordsIdle } from './dataset-fragments.js';
