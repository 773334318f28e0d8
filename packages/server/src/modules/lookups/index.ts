// The lookups module's face (decision 077): what the rest of the server may use of it.
export { registerLookupRoutes } from './lookups.routes.js';
export {
  diseaseNamesOfDatasets,
  facetLookupLabels,
  findMatricesByIds,
  findMatrix,
  listAllLookups,
  listConsolidationMembers,
  listDiseasesOfDataset,
} from './lookups.service.js';
