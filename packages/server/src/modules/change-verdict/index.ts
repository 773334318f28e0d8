// The change-verdict module's face (decision 077): what the rest of the server may use of it.
export { registerChangeVerdictRoutes } from './change-verdict.routes.js';
export { registerFhirRoutes } from './fhir.routes.js';
