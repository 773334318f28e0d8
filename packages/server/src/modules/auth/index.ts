// The auth module's face (decision 077): what the rest of the server may use of it.
export { registerAuth, SESSION_COOKIE } from './auth.plugin.js';
export { registerAuthRoutes } from './auth.routes.js';
export { registerUserRoutes } from './users.routes.js';
export type { SessionUser } from './auth.service.js';
export {
  createUser,
  findUserBrief,
  hasAnyUser,
  listActiveUserBriefs,
  resetPassword,
  type UserBrief,
} from './users.service.js';
export { SessionPurge } from './session-purge.js';
