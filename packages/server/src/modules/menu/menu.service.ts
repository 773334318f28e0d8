/**
 * The menu's face for its routes: the catalogue a menu is matched and judged against, kept across
 * writes (menu-data.ts, decisions 059 and 066).
 */
export { MenuDataSource, refKeyOf, type MenuData } from './menu-data.js';
