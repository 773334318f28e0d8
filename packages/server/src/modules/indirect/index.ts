// The indirect module's face (decision 077): what the rest of the server may use of it.
export { registerIndirectRoutes } from './indirect.routes.js';
