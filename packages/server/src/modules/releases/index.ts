// The releases module's face (decision 077): what the rest of the server may use of it.
export { registerReleaseRoutes } from './releases.routes.js';
export { monthlyReleaseTask } from './release-schedule.js';
