/**
 * How the whole-catalogue dataset answers are kept: they read datasets and what a dataset carries
 * (its measurand's name, its reference, lookups), not the meta-analysis results.
 */
export const CATALOGUE_JSON = {
  type: 'application/json; charset=utf-8',
  compress: true,
  scopes: ['datasets', 'analytes', 'references', 'lookups'],
} as const;
