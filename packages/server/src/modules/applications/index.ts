// The applications module's face (decision 077): what the rest of the server may use of it.
export { registerApplicationsRoutes } from './applications.routes.js';
export {
  buildApplications,
  groupApplications,
  withPopulation,
  type ApplicationsGroup,
} from './applications.service.js';
