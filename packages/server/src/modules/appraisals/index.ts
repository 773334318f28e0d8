// The appraisals module's face (decision 077): what the rest of the server may use of it.
export { registerAppraisalRoutes } from './appraisals.routes.js';
export { AppraisalService, appraisalExists } from './appraisals.service.js';
export { blindViewFor, SEES_EVERYTHING, type BlindView } from './appraisals-blind.service.js';
