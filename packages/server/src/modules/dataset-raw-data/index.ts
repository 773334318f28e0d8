// The dataset raw-data module's face (decision 077): what the rest of the server may use of it.
export { registerDatasetRawDataRoutes } from './dataset-raw-data.routes.js';
