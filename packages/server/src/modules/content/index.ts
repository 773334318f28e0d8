// The content module's face (decision 077): what the rest of the server may use of it.
export { registerContentRoutes } from './content.routes.js';
export { seedContentPages } from './content.service.js';
