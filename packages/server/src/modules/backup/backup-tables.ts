import { QUALITY_ITEMS, INTERVAL_UNITS } from '@bvdb/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import * as s from '../../db/schema.js';

/**
 * What a whole-database file carries: `data` tables in every export (anonymous callers get their
 * published part), `full` tables only in a complete backup (administrators and the CLI).
 */
export type TableScope = 'data' | 'full';

/** A problem with one field of one row, before anything is written. */
export interface RowProblem {
  field: string;
  message: string;
}

export interface ExportTable {
  /** The SQL table name, which is also the key in the file. */
  name: string;
  table: PgTable;
  scope: TableScope;
  /** The rows an anonymous caller may see (published data), as a condition on the row alias `t`. */
  publicRows?: SQL;
  /** Rules the database holds in check constraints, checked first so the message names the row. */
  check?: (row: Record<string, unknown>) => RowProblem[];
  /** The rows the blind rule withholds from a participant's backup, by id (decision 038). */
  blind?: 'appraisalIds' | 'auditEntryIds';
}

const published = sql`exists (select 1 from bv_specifications p where p.id = t.bv_specification_id and p.published)`;

function datasetRules(row: Record<string, unknown>): RowProblem[] {
  const problems: RowProblem[] = [];
  for (const item of QUALITY_ITEMS) {
    const grade = row[item.key];
    if (grade !== undefined && !(item.allowedGrades as readonly unknown[]).includes(grade)) {
      problems.push({
        field: item.key,
        message: `${JSON.stringify(grade)} is not a grade this item allows (${item.allowedGrades.join(', ')})`,
      });
    }
  }
  for (const field of ['interval_units', 'study_duration_units']) {
    const unit = row[field];
    if (unit != null && !(INTERVAL_UNITS as readonly unknown[]).includes(unit)) {
      problems.push({ field, message: `${JSON.stringify(unit)} is not one of ${INTERVAL_UNITS.join(', ')}` });
    }
  }
  const sex = row.sex_for_meta_analysis;
  if (sex != null && !['Males', 'Females', 'Mixed'].includes(sex as string)) {
    problems.push({
      field: 'sex_for_meta_analysis',
      message: `${JSON.stringify(sex)} is not Males, Females or Mixed`,
    });
  }
  return problems;
}

/**
 * Every table a whole-database file carries, parents before children (the import inserts in this
 * order and deletes in the reverse one). The one list to extend when a table is added: sessions,
 * sign-in throttles, jobs and app_state are the running system's state, not data, and stay out.
 */
export const EXPORT_TABLES: readonly ExportTable[] = [
  { name: 'matrices', table: s.matrices, scope: 'data' },
  { name: 'matrix_consolidations', table: s.matrixConsolidations, scope: 'data' },
  { name: 'matrix_consolidation_members', table: s.matrixConsolidationMembers, scope: 'data' },
  { name: 'states_of_well_being', table: s.statesOfWellBeing, scope: 'data' },
  { name: 'disease_states', table: s.diseaseStates, scope: 'data' },
  { name: 'ethnicities', table: s.ethnicities, scope: 'data' },
  { name: 'units', table: s.units, scope: 'data' },
  { name: 'analytical_principle_methods', table: s.analyticalPrincipleMethods, scope: 'data' },
  {
    name: 'analytes',
    table: s.analytes,
    scope: 'data',
    // Every measurand and every reference has a public page and record (GET /api/analytes/:id,
    // /api/references/:id), so the public file holds them all: a mirror restored from it must not
    // answer 404 where the source answers (issue 27.3, decision 043).
  },
  // The names the menu matches by are public (GET /api/v1/measurands/:id/names, decision 083).
  { name: 'measurand_names', table: s.measurandNames, scope: 'data' },
  // The codes laboratory systems name measurands by are public too (decision 091): the crosswalk.
  { name: 'measurand_codes', table: s.measurandCodes, scope: 'data' },
  {
    name: 'references',
    table: s.references,
    scope: 'data',
  },
  { name: 'reference_files', table: s.referenceFiles, scope: 'full' },
  {
    name: 'bv_specifications',
    table: s.bvSpecifications,
    scope: 'data',
    publicRows: sql`t.published`,
    check: datasetRules,
  },
  {
    name: 'bv_specification_disease_states',
    table: s.bvSpecificationDiseaseStates,
    scope: 'data',
    publicRows: published,
  },
  { name: 'meta_calculations', table: s.metaCalculations, scope: 'data' },
  {
    name: 'meta_calculation_datasets',
    table: s.metaCalculationDatasets,
    scope: 'data',
    publicRows: published,
  },
  // The estimates' history (decision 052): complete backups only; restored with them by an import.
  { name: 'estimates', table: s.estimates, scope: 'full' },
  { name: 'estimate_versions', table: s.estimateVersions, scope: 'full' },
  { name: 'users', table: s.users, scope: 'full' },
  // Laboratories' local estimates from routine data (decision 095): they name the curator who saved
  // them (created_by), so complete backups only.
  { name: 'local_estimates', table: s.localEstimates, scope: 'full' },
  // Kept test menus (decision 064): link menus and users' named ones; complete backups only.
  { name: 'menus', table: s.menus, scope: 'full' },
  // A study's raw results, pseudonymised subjects (issue 31.3): staff only, so complete backups only.
  { name: 'dataset_raw_files', table: s.datasetRawFiles, scope: 'full' },
  // Appraisals name their assessors and hold grades not yet final: complete backups only.
  { name: 'appraisal_rounds', table: s.appraisalRounds, scope: 'full' },
  { name: 'appraisals', table: s.appraisals, scope: 'full', blind: 'appraisalIds' },
  { name: 'mailing_list_members', table: s.mailingListMembers, scope: 'full' },
  { name: 'content_pages', table: s.contentPages, scope: 'full' },
  { name: 'audit_log', table: s.auditLog, scope: 'full', blind: 'auditEntryIds' },
];

/** The tables whose rows make a database "not empty" for an import. */
export const CORE_TABLES = ['analytes', 'references', 'bv_specifications'] as const;

/** Meta-analysis results: left out of the import with --recompute (bvdb computes them afresh). */
export const META_TABLES = new Set(['meta_calculations', 'meta_calculation_datasets']);

export function tablesOf(full: boolean): readonly ExportTable[] {
  return EXPORT_TABLES.filter((t) => full || t.scope === 'data');
}
