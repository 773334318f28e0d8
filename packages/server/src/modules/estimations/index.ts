// The estimations module's face (decision 077): what the rest of the server may use of it.
export { registerEstimationRoutes } from './estimations.routes.js';
