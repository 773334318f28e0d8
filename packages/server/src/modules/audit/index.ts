// The audit module's face (decision 077): what the rest of the server may use of it.
export { registerAuditRoutes } from './audit.routes.js';
export { findCreatorId, listAuditDetails, recordAudit } from './audit.service.js';
