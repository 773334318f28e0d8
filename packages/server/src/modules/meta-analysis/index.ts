// The meta-analysis module's face (decision 077): what the rest of the server may use of its four
// parts — the calculation (calculation/), the published results (results/), the statistics
// service (stats/) and the curators' tools (tools/).
export { registerMetaFacetRoutes } from './facets/meta-facets.routes.js';
export {
  forEachMeasurandInSteps,
  keptFacetedEstimates,
  NO_POPULATION_ESTIMATE,
  populationOf,
  populationResultOf,
  populationRowSentence,
  populationSentence,
  studiesOf,
  type Population,
} from './facets/population.service.js';
export type { FacetResult } from './facets/meta-facets.types.js';
export { registerMetaRoutes } from './results/meta-results.routes.js';
export { registerStatsRoutes } from './stats/stats.routes.js';
export { registerMetaToolRoutes } from './tools/meta-tools.routes.js';
export { listAnalyteIdsToRecompute, recomputeAnalytesMetas } from './calculation/meta-calculation.service.js';
export {
  estimateRefsOf,
  headlineOf,
  listDisplayedMetasOf,
  listDisplayedMetaStamps,
  listMetaPage,
  listPresentedMetas,
  listPresentedMetasInPages,
  listPresentedMetasOfAnalyte,
  refKeyOf,
  workbenchEstimateOf,
  type EstimateRefs,
} from './results/meta-results.service.js';
export type { MetaRow } from './results/meta-results.repository.js';
