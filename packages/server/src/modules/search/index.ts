// The search module's face (decision 077): what the rest of the server may use of it.
export { registerSearchRoutes } from './search.routes.js';
export { AnalyteSearch } from './search.service.js';
