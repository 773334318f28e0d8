/**
 * The database's tables, one file per aggregate under `schema/` (decision 078), all re-exported here:
 * the code imports its tables from `db/schema.js`, the drizzle client is given them all
 * (`client.ts`), and drizzle-kit reads this file (`drizzle.config.ts`) to compare with the migrations.
 */
export * from './schema/lookups.js';
export * from './schema/analytes.js';
export * from './schema/references.js';
export * from './schema/datasets.js';
export * from './schema/meta-analysis.js';
export * from './schema/change-log.js';
export * from './schema/releases.js';
export * from './schema/users.js';
export * from './schema/jobs.js';
export * from './schema/mailing-list.js';
export * from './schema/menus.js';
export * from './schema/content-pages.js';
export * from './schema/audit-log.js';
export * from './schema/appraisals.js';
export * from './schema/app-state.js';
export * from './schema/measurand-names.js';
export * from './schema/measurand-codes.js';
export * from './schema/local-estimates.js';
