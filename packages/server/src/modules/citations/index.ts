// The citations module's face (decision 077): what the rest of the server may use of it.
export { registerCitationRoutes } from './citations.routes.js';
