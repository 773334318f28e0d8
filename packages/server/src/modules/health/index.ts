// The health module's face (decision 077): what the rest of the server may use of it.
export { registerHealthRoutes } from './health.routes.js';
