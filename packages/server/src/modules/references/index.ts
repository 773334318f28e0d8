// The references module's face (decision 077): what the rest of the server may use of it.
export { registerReferenceRoutes } from './references.routes.js';
export { registerReferenceWriteRoutes } from './reference-write.routes.js';
export { findReference, findReferenceTitles, listReferenceKeys } from './references.service.js';
export { ReferenceWriteService } from './reference-write.service.js';
