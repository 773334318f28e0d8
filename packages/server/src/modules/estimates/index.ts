// The estimates module's face (decision 077): what the rest of the server may use of it.
export { registerEstimateRoutes } from './estimates.routes.js';
export {
  currentVersionsOf,
  keyOf,
  listAnalytesWithUnversionedResults,
  listShownAsOf,
  recordVersions,
  type EstimateSnapshot,
  type RecomputedEstimate,
  type VersionCause,
} from './estimates.service.js';
export type { EstimateRow, VersionRow } from './estimates.repository.js';
export { presentVersion } from './estimates.presenter.js';
