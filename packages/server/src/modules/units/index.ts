// The units module's face (decision 077): what the rest of the server may use of it.
export { registerUnitRoutes } from './units.routes.js';
