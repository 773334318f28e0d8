/** The meta-analysis results, their datasets, and the estimates with their published versions. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { analytes } from './analytes.js';
import { stamps } from './columns.js';
import { bvSpecifications } from './datasets.js';
import { matrices, matrixConsolidations } from './lookups.js';

export const metaCalculations = pgTable(
  'meta_calculations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    analyteId: integer('analyte_id')
      .notNull()
      .references(() => analytes.id, { onDelete: 'cascade' }),
    matrixId: integer('matrix_id').references(() => matrices.id),
    matrixConsolidationId: integer('matrix_consolidation_id').references(() => matrixConsolidations.id),
    varType: text('var_type').notNull(),
    median: doublePrecision('median'),
    lower: doublePrecision('lower'),
    upper: doublePrecision('upper'),
    numberUsed: integer('number_used').notNull().default(0),
    method: text('method').notNull(),
    seed: integer('seed'),
    comments: text('comments'),
    display: boolean('display').notNull().default(true),
    referenceIds: integer('reference_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    computedAt: timestamp('computed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    ...stamps,
  },
  (t) => [
    check('meta_var_type_ck', sql`${t.varType} in (':cvi', ':cvg')`),
    check('meta_method_ck', sql`${t.method} in ('none', 'single', 'range', 'bootstrap')`),
    check('meta_number_used_ck', sql`${t.numberUsed} >= 0`),
    check(
      'meta_matrix_or_consolidation_ck',
      sql`(${t.matrixId} is null) <> (${t.matrixConsolidationId} is null)`,
    ),
    index('meta_analyte_idx').on(t.analyteId),
    uniqueIndex('meta_analyte_matrix_type_uq')
      .on(t.analyteId, t.matrixId, t.varType)
      .where(sql`${t.matrixId} is not null`),
    uniqueIndex('meta_analyte_consolidation_type_uq')
      .on(t.analyteId, t.matrixConsolidationId, t.varType)
      .where(sql`${t.matrixConsolidationId} is not null`),
  ],
);

export const metaCalculationDatasets = pgTable(
  'meta_calculation_datasets',
  {
    metaCalculationId: integer('meta_calculation_id')
      .notNull()
      .references(() => metaCalculations.id, { onDelete: 'cascade' }),
    bvSpecificationId: integer('bv_specification_id')
      .notNull()
      .references(() => bvSpecifications.id, { onDelete: 'cascade' }),
    studyId: text('study_id').notNull(),
    grade: text('grade').notNull(),
    cv: doublePrecision('cv').notNull(),
    ciLower: doublePrecision('ci_lower').notNull(),
    ciUpper: doublePrecision('ci_upper').notNull(),
    weight: doublePrecision('weight').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.metaCalculationId, t.bvSpecificationId] }),
    index('mcd_spec_idx').on(t.bvSpecificationId),
  ],
);

/**
 * Estimates with a history (issue 29.3, decision 052): one row per measurand × matrix (or
 * consolidation) × CVI/CVG that ever had a result. Its id is stable: it survives recomputes, which
 * may delete and re-create the meta_calculations row. No foreign key on the matrix or consolidation:
 * a lookup removed later does not erase what was published under it.
 */
export const estimates = pgTable(
  'estimates',
  {
    id: serial('id').primaryKey(),
    analyteId: integer('analyte_id')
      .notNull()
      .references(() => analytes.id, { onDelete: 'cascade' }),
    matrixId: integer('matrix_id'),
    matrixConsolidationId: integer('matrix_consolidation_id'),
    varType: text('var_type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    check('estimates_var_type_ck', sql`${t.varType} in (':cvi', ':cvg')`),
    check(
      'estimates_matrix_or_consolidation_ck',
      sql`(${t.matrixId} is null) <> (${t.matrixConsolidationId} is null)`,
    ),
    uniqueIndex('estimates_analyte_matrix_type_uq')
      .on(t.analyteId, t.matrixId, t.varType)
      .where(sql`${t.matrixId} is not null`),
    uniqueIndex('estimates_analyte_consolidation_type_uq')
      .on(t.analyteId, t.matrixConsolidationId, t.varType)
      .where(sql`${t.matrixConsolidationId} is not null`),
  ],
);

/** One dataset behind a version, as a reader saw it (the forest plot's row). */
export interface EstimateVersionDataset {
  id: number;
  reference_id: number | null;
  study_id: string;
  grade: string;
  value: number;
  ci_lower: number;
  ci_upper: number;
  weight: number;
}

/**
 * The versions of an estimate: written only when something a reader sees changed (decision 052).
 * `withdrawn` versions record that the estimate stopped being shown (its datasets were removed or
 * excluded): their values are null. The cause is a role, never a person.
 */
export const estimateVersions = pgTable(
  'estimate_versions',
  {
    estimateId: integer('estimate_id')
      .notNull()
      .references(() => estimates.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    withdrawn: boolean('withdrawn').notNull().default(false),
    /** The meta_calculations row that showed it then (may be gone since). */
    metaId: integer('meta_id'),
    name: text('name').notNull(),
    median: doublePrecision('median'),
    lower: doublePrecision('lower'),
    upper: doublePrecision('upper'),
    method: text('method').notNull(),
    seed: integer('seed'),
    numberUsed: integer('number_used').notNull().default(0),
    referenceIds: integer('reference_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    datasets: jsonb('datasets').$type<EstimateVersionDataset[]>().notNull().default([]),
    computedAt: timestamp('computed_at', { withTimezone: true, mode: 'date' }).notNull(),
    causeKind: text('cause_kind').notNull(),
    causeDatasetId: integer('cause_dataset_id'),
    causeRole: text('cause_role').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.estimateId, t.version] }),
    index('estimate_versions_computed_idx').on(t.computedAt),
    check('estimate_versions_version_ck', sql`${t.version} >= 1`),
    check(
      'estimate_versions_cause_kind_ck',
      sql`${t.causeKind} in ('dataset', 'appraisal', 'import', 'lookup', 'initial')`,
    ),
  ],
);
