// The menu module's face (decision 077): what the rest of the server may use of it.
export { registerMenuRoutes } from './menu.routes.js';
export { keptMenuExists } from './kept-menus.service.js';
export { MenuSweep } from './menu-sweep.js';
export type { FoundTest, TestLookup } from './test-lookup.js';
