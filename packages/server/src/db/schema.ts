import {
  INTERVAL_UNITS,
  QUALITY_ITEMS,
  type Grade,
  type SexForMetaAnalysis,
  type TimeUnit,
} from '@bvdb/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
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

const stamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};
/** Optimistic concurrency: every edit states the version it was based on. */
const version = { version: integer('version').notNull().default(1) };

const GRADES_SQL = (col: string, allowed: readonly string[]) =>
  sql.raw(`"${col}" in (${allowed.map((g) => `'${g}'`).join(', ')})`);

// ---- lookups (spec section 3) ----
export const matrices = pgTable('matrices', {
  id: integer('id').primaryKey(),
  matrixExpansion: text('matrix_expansion').notNull().unique(),
  matrixExplanation: text('matrix_explanation'),
});

export const matrixConsolidations = pgTable('matrix_consolidations', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
});

export const matrixConsolidationMembers = pgTable(
  'matrix_consolidation_members',
  {
    consolidationId: integer('consolidation_id')
      .notNull()
      .references(() => matrixConsolidations.id, { onDelete: 'cascade' }),
    matrixId: integer('matrix_id')
      .notNull()
      .references(() => matrices.id),
  },
  (t) => [primaryKey({ columns: [t.consolidationId, t.matrixId] }), index('mcm_matrix_idx').on(t.matrixId)],
);

export const statesOfWellBeing = pgTable('states_of_well_being', {
  id: integer('id').primaryKey(),
  expansion: text('state_of_well_being_descriptor_expansion').notNull().unique(),
  explanation: text('state_of_well_being_descriptor_explanation'),
});

export const diseaseStates = pgTable('disease_states', {
  id: integer('id').primaryKey(),
  itemType: text('item_type').notNull().unique(),
});

export const ethnicities = pgTable('ethnicities', {
  id: integer('id').primaryKey(),
  expansion: text('ethnicity_expansion').notNull().unique(),
});

export const units = pgTable('units', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  ...version,
  ...stamps,
});

export const analyticalPrincipleMethods = pgTable('analytical_principle_methods', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
});

// ---- core records ----
export const analytes = pgTable(
  'analytes',
  {
    id: serial('id').primaryKey(),
    displayName: text('display_name').notNull(),
    fullName: text('full_name'),
    alternateNames: text('alternate_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    loinc: text('loinc'),
    npu: text('npu'),
    snomedCt: text('snomed_ct'),
    isDefault: boolean('default').notNull().default(false),
    displayData: boolean('display_data').notNull().default(true),
    isDemo: boolean('is_demo').notNull().default(false),
    ...version,
    ...stamps,
  },
  (t) => [uniqueIndex('analytes_display_name_uq').on(sql`lower(${t.displayName})`)],
);

export const references = pgTable(
  'references',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    author: text('author'),
    journal: text('journal'),
    volume: integer('volume'),
    pages: text('pages'),
    yearOfPublication: integer('year_of_publication'),
    pubmedLink: text('pubmed_link'),
    doi: text('doi'),
    link: text('link'),
    linkToSpanishDatabase: integer('link_to_spanish_database').notNull().default(0),
    articleUrl: text('article_url'),
    articleFileName: text('article_file_name'),
    articleFileKey: text('article_file_key'),
    articleFileType: text('article_file_type'),
    isDemo: boolean('is_demo').notNull().default(false),
    ...version,
    ...stamps,
  },
  (t) => [
    uniqueIndex('references_doi_uq')
      .on(sql`lower(${t.doi})`)
      .where(sql`${t.doi} is not null`),
    index('references_title_idx').on(t.title),
    check(
      'references_year_ck',
      sql`${t.yearOfPublication} is null or ${t.yearOfPublication} between 1800 and 2200`,
    ),
    check('references_volume_ck', sql`${t.volume} is null or ${t.volume} >= 0`),
    check('references_spanish_ck', sql`${t.linkToSpanishDatabase} >= 0`),
  ],
);

/** PostgreSQL `bytea` as a Node Buffer (drizzle has no built-in column for it). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The article PDF of a reference, kept in the database so a backup of the database is a backup of
 * everything (one file per reference; replaced on a new upload, gone with the reference).
 */
export const referenceFiles = pgTable(
  'reference_files',
  {
    referenceId: integer('reference_id')
      .primaryKey()
      .references(() => references.id, { onDelete: 'cascade' }),
    bytes: bytea('bytes').notNull(),
    contentType: text('content_type').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [check('reference_files_size_ck', sql`${t.size} > 0 and ${t.size} = octet_length(${t.bytes})`)],
);

/** A BIVAC grade column; the check constraints below hold each item to the grades it allows. */
const gradeCol = <N extends string>(name: N) => text(name).notNull().default('A').$type<Grade>();
/** A unit of time (interval and study duration), held by a check constraint. */
const timeUnitCol = <N extends string>(name: N) => text(name).$type<TimeUnit>();
const nonNeg = (col: string) => sql.raw(`"${col}" is null or "${col}" >= 0`);

const NON_NEGATIVE_COLUMNS = [
  'age_min',
  'age_max',
  'age_mean',
  'age_sd',
  'study_duration',
  'number_of_subjects',
  'number_of_males',
  'number_of_females',
  'number_of_subjects_included_in_bv_estimation',
  'samples_per',
  'average_number_of_samples_used_for_bv_estimation',
  'average_number_of_replicates',
  'estimates_of_cvi',
  'reported_cvi_lower_confidence_interval',
  'reported_cvi_upper_confidence_interval',
  'estimates_of_cvg',
  'reported_cvg_lower_confidence_interval',
  'reported_cvg_upper_confidence_interval',
  'calculated_within_bv_lower_ci',
  'calculated_within_bv_upper_ci',
  'calculated_between_bv_lower_ci',
  'calculated_between_bv_upper_ci',
  'analytical_cv',
  'concentration_mean',
  'concentration_min',
  'concentration_max',
  'concentration_sd',
  'concentration_standard_unit_mean',
  'concentration_standard_unit_min',
  'concentration_standard_unit_max',
  'concentration_standard_unit_sd',
] as const;

const UNITS_OF_TIME = `(${INTERVAL_UNITS.map((u) => `'${u}'`).join(',')})`;

export const bvSpecifications = pgTable(
  'bv_specifications',
  {
    id: serial('id').primaryKey(),
    uniqueIdentifier: text('unique_identifier').notNull(),
    referenceId: integer('reference_id')
      .notNull()
      .references(() => references.id, { onDelete: 'restrict' }),
    analyteId: integer('analyte_id')
      .notNull()
      .references(() => analytes.id, { onDelete: 'restrict' }),
    matrixId: integer('matrix_id')
      .notNull()
      .references(() => matrices.id),
    // BIVAC grades
    scale: gradeCol('scale'),
    studyPopulation: gradeCol('study_population'),
    samples: gradeCol('samples'),
    measurand: gradeCol('measurand'),
    preAnalytical: gradeCol('pre_analytical'),
    replicateAnalysis: gradeCol('replicate_analysis'),
    steadyState: gradeCol('steady_state'),
    outlierAnalysis: gradeCol('outlier_analysis'),
    normality: gradeCol('normality'),
    varianceHomogeneity: gradeCol('variance_homogeneity'),
    anova: gradeCol('anova'),
    ci: gradeCol('ci'),
    numberOfResults: gradeCol('number_of_results'),
    concentrations: gradeCol('concentrations'),
    scoringComment: text('scoring_comment'),
    // population
    ageMin: doublePrecision('age_min'),
    ageMax: doublePrecision('age_max'),
    ageMean: doublePrecision('age_mean'),
    ageSd: doublePrecision('age_sd'),
    stateOfWellBeingId: integer('state_of_well_being_id').references(() => statesOfWellBeing.id),
    ethnicityId: integer('ethnicity_id').references(() => ethnicities.id),
    studyDuration: doublePrecision('study_duration'),
    studyDurationUnits: timeUnitCol('study_duration_units'),
    numberOfSubjects: integer('number_of_subjects'),
    numberOfMales: integer('number_of_males'),
    numberOfFemales: integer('number_of_females'),
    numberOfSubjectsIncludedInBvEstimation: integer('number_of_subjects_included_in_bv_estimation'),
    // sampling
    samplesPer: doublePrecision('samples_per'),
    intervalUnits: timeUnitCol('interval_units'),
    samplingTimesStartTime: text('sampling_times_start_time'),
    samplingTimesEndTime: text('sampling_times_end_time'),
    averageNumberOfSamplesUsedForBvEstimation: doublePrecision(
      'average_number_of_samples_used_for_bv_estimation',
    ),
    averageNumberOfReplicates: doublePrecision('average_number_of_replicates'),
    preanalyticalIssues: text('preanalytical_issues'),
    // estimates
    estimatesOfCvi: doublePrecision('estimates_of_cvi'),
    reportedCviLower: doublePrecision('reported_cvi_lower_confidence_interval'),
    reportedCviUpper: doublePrecision('reported_cvi_upper_confidence_interval'),
    estimatesOfCvg: doublePrecision('estimates_of_cvg'),
    reportedCvgLower: doublePrecision('reported_cvg_lower_confidence_interval'),
    reportedCvgUpper: doublePrecision('reported_cvg_upper_confidence_interval'),
    calculatedWithinLower: doublePrecision('calculated_within_bv_lower_ci'),
    calculatedWithinUpper: doublePrecision('calculated_within_bv_upper_ci'),
    calculatedBetweenLower: doublePrecision('calculated_between_bv_lower_ci'),
    calculatedBetweenUpper: doublePrecision('calculated_between_bv_upper_ci'),
    analyticalCv: doublePrecision('analytical_cv'),
    // concentrations
    concentrationMean: doublePrecision('concentration_mean'),
    concentrationMin: doublePrecision('concentration_min'),
    concentrationMax: doublePrecision('concentration_max'),
    concentrationSd: doublePrecision('concentration_sd'),
    concentrationStandardUnitMean: doublePrecision('concentration_standard_unit_mean'),
    concentrationStandardUnitMin: doublePrecision('concentration_standard_unit_min'),
    concentrationStandardUnitMax: doublePrecision('concentration_standard_unit_max'),
    concentrationStandardUnitSd: doublePrecision('concentration_standard_unit_sd'),
    // units and method
    unitId: integer('unit_id').references(() => units.id, { onDelete: 'restrict' }),
    secondUnitId: integer('second_unit_id').references(() => units.id, { onDelete: 'restrict' }),
    standardUnitForReportingOfAnalyte: text('standard_unit_for_reporting_of_analyte'),
    secondStandardUnit: text('second_standard_unit'),
    overallPrincipleMethodId: integer('overall_principle_method_id').references(
      () => analyticalPrincipleMethods.id,
    ),
    // flags
    healthy: boolean('healthy').notNull().default(false),
    adult: boolean('adult').notNull().default(false),
    weeklySamplings: boolean('weekly_samplings').notNull().default(false),
    review: boolean('review').notNull().default(false),
    published: boolean('published').notNull().default(false),
    includeInMetaAnalysis: boolean('include_in_meta_analysis').notNull().default(false),
    // codes and text
    sexForMetaAnalysis: text('sex_for_meta_analysis').$type<SexForMetaAnalysis>(),
    snomedCt: text('snomed_ct'),
    npu: text('npu'),
    loinc: text('loinc'),
    comment: text('comment'),
    isDemo: boolean('is_demo').notNull().default(false),
    /** `final` (the grades are the published ones) or `in_appraisal` (a round is open; decision 008). */
    appraisalState: text('appraisal_state').notNull().default('final'),
    /** False until a dataset entered "in appraisal" gets its first final grades: it stays out of meta-analyses. */
    gradesFinal: boolean('grades_final').notNull().default(true),
    ...version,
    ...stamps,
  },
  (t) => [
    index('bvs_analyte_idx').on(t.analyteId),
    check('bvs_appraisal_state_ck', sql`${t.appraisalState} in ('final', 'in_appraisal')`),
    index('bvs_reference_idx').on(t.referenceId),
    index('bvs_matrix_idx').on(t.matrixId),
    index('bvs_published_idx').on(t.published),
    index('bvs_updated_idx').on(t.updatedAt),
    // Allowed grades per BIVAC item (spec section 5), from the domain's table.
    ...QUALITY_ITEMS.map((item) =>
      check(`bvs_${item.key}_grade_ck`, GRADES_SQL(item.key, item.allowedGrades)),
    ),
    ...NON_NEGATIVE_COLUMNS.map((col) => check(`bvs_${col}_nonneg_ck`, nonNeg(col))),
    check(
      'bvs_sex_ck',
      sql`${t.sexForMetaAnalysis} is null or ${t.sexForMetaAnalysis} in ('Males','Females','Mixed')`,
    ),
    check(
      'bvs_interval_units_ck',
      sql.raw(`"interval_units" is null or "interval_units" in ${UNITS_OF_TIME}`),
    ),
    check(
      'bvs_duration_units_ck',
      sql.raw(`"study_duration_units" is null or "study_duration_units" in ${UNITS_OF_TIME}`),
    ),
    check(
      'bvs_sampling_times_ck',
      sql`(${t.samplingTimesStartTime} is null) = (${t.samplingTimesEndTime} is null)`,
    ),
    check('bvs_unique_identifier_ck', sql`length(trim(${t.uniqueIdentifier})) > 0`),
  ],
);

export const bvSpecificationDiseaseStates = pgTable(
  'bv_specification_disease_states',
  {
    bvSpecificationId: integer('bv_specification_id')
      .notNull()
      .references(() => bvSpecifications.id, { onDelete: 'cascade' }),
    diseaseStateId: integer('disease_state_id')
      .notNull()
      .references(() => diseaseStates.id),
  },
  (t) => [primaryKey({ columns: [t.bvSpecificationId, t.diseaseStateId] })],
);

/**
 * The study's raw results a dataset was estimated from (issue 31.3): uploaded by staff, seen by staff
 * only (the subject identifiers are the study's pseudonyms), never in a public answer or the public
 * export, and gone with the dataset. One file per dataset; a new upload replaces it.
 */
export const datasetRawFiles = pgTable(
  'dataset_raw_files',
  {
    bvSpecificationId: integer('bv_specification_id')
      .primaryKey()
      .references(() => bvSpecifications.id, { onDelete: 'cascade' }),
    bytes: bytea('bytes').notNull(),
    contentType: text('content_type').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [check('dataset_raw_files_size_ck', sql`${t.size} > 0 and ${t.size} = octet_length(${t.bytes})`)],
);

// ---- meta-analysis results ----
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

/**
 * The change feed (issue 30.1, decision 056): one row per published change, written by database
 * triggers on `estimate_versions`, `bv_specifications`, `references` and `analytes` in the writer's
 * own transaction (migration 0007). `cursor` is given at commit time, under a transaction-scoped
 * advisory lock taken by a deferred constraint trigger, so cursor order is commit order: a reader
 * that asks for `cursor > n` never finds a smaller cursor committed later. Rows with a null cursor
 * exist only inside their writer's transaction. No foreign keys: a withdrawn record is still news.
 */
export const changeLog = pgTable(
  'change_log',
  {
    /** Order of the writes inside one transaction. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    cursor: bigint('cursor', { mode: 'number' }),
    /** When the change was committed (set with the cursor). */
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    entity: text('entity').notNull(),
    entityId: integer('entity_id').notNull(),
    action: text('action').notNull(),
    /** The measurand it belongs to (estimates, datasets, measurands; null for references). */
    analyteId: integer('analyte_id'),
    /** For estimates: which estimate and which of its versions (the previous one is `from`). */
    estimateId: integer('estimate_id'),
    version: integer('version'),
  },
  (t) => [
    uniqueIndex('change_log_cursor_uq').on(t.cursor),
    index('change_log_analyte_cursor_idx').on(t.analyteId, t.cursor),
    index('change_log_unsealed_idx')
      .on(t.id)
      .where(sql`${t.cursor} is null`),
    check('change_log_entity_ck', sql`${t.entity} in ('estimate', 'dataset', 'reference', 'measurand')`),
    check('change_log_action_ck', sql`${t.action} in ('created', 'changed', 'withdrawn')`),
  ],
);

/**
 * Releases of the published database (issue 30.2, decision 058): a frozen, numbered set of files.
 * `cursor` is the change feed's position the release covers (every change up to it is in its
 * files and notes); the next release's notes are the changes after it. A row is written as
 * `building` when a curator (or the monthly schedule) asks, and becomes `published` in the same
 * transaction that stores its files: a published release never changes.
 */
export const releases = pgTable(
  'releases',
  {
    id: serial('id').primaryKey(),
    /** `2026-11-27`, or `2026-11-27.2` for the second release of that day (UTC). */
    version: text('version').notNull(),
    status: text('status').notNull().default('building'),
    /** `curator`, `admin` (who asked, by role: no name) or `schedule`. */
    cause: text('cause').notNull(),
    /** The feed's cursor this release covers, and the previous release's (its notes are between). */
    cursor: bigint('cursor', { mode: 'number' }).notNull(),
    previousCursor: bigint('previous_cursor', { mode: 'number' }).notNull(),
    notes: text('notes').notNull().default(''),
    error: text('error'),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('releases_version_uq').on(t.version),
    check('releases_status_ck', sql`${t.status} in ('building', 'published', 'failed')`),
  ],
);

/** The files of a published release: what each is; the bytes are in release_file_chunks. */
export const releaseFiles = pgTable(
  'release_files',
  {
    releaseId: integer('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    /** Order in the listing and the manifest. */
    position: integer('position').notNull(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
  },
  (t) => [primaryKey({ columns: [t.releaseId, t.name] })],
);

/**
 * A release file's bytes in pieces of at most a megabyte (`seq` from 0): written one statement at
 * a time with the event loop free between them, so storing a 50 MB file never holds the embedded
 * database's thread for seconds, and read back a piece per query for a download.
 */
export const releaseFileChunks = pgTable(
  'release_file_chunks',
  {
    releaseId: integer('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    seq: integer('seq').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.releaseId, t.name, t.seq] }),
    check('release_file_chunks_seq_ck', sql`${t.seq} >= 0`),
  ],
);

/**
 * The release notes sent to the mailing list (issue 30.4): kept whatever happened, so an
 * administrator sees what was sent, or what would have been when Mailgun is not configured.
 */
export const releaseMailings = pgTable('release_mailings', {
  releaseId: integer('release_id')
    .primaryKey()
    .references(() => releases.id, { onDelete: 'cascade' }),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  recipients: integer('recipients').notNull(),
  sent: integer('sent').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  /** `sent` (through Mailgun), `stored` (no Mailgun configured: only kept here). */
  delivery: text('delivery').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

// ---- people, sessions, jobs ----
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('admin'),
    /** A deactivated account cannot sign in; its past appraisals and audit entries stay. */
    active: boolean('active').notNull().default(true),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    ...version,
    ...stamps,
  },
  (t) => [
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
    check('users_role_ck', sql`${t.role} in ('admin', 'curator', 'assessor')`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the cookie token: a leaked table does not leak sessions. */
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const loginThrottles = pgTable('login_throttles', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
});

export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    jid: text('jid'),
    name: text('name').notNull(),
    queue: text('queue').notNull(),
    className: text('class_name').notNull(),
    status: text('status').notNull().default('queued'),
    progressStage: text('progress_stage'),
    progressCurrent: integer('progress_current').notNull().default(0),
    progressMax: integer('progress_max').notNull().default(0),
    error: text('error'),
    payload: jsonb('payload'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    ...stamps,
  },
  (t) => [
    check('jobs_status_ck', sql`${t.status} in ('queued', 'working', 'complete', 'failed')`),
    check('jobs_progress_ck', sql`${t.progressCurrent} >= 0 and ${t.progressMax} >= 0`),
    index('jobs_jid_idx').on(t.jid),
    index('jobs_created_idx').on(t.createdAt),
  ],
);

/**
 * Measurands whose meta-analyses wait for a recompute (an outbox, written in the same transaction as
 * the data change). One row per measurand, so requests coalesce; `generation` counts them, so a
 * request made while the measurand is being recomputed is not lost. A worker claims rows for
 * `claimed_until` (a lease it extends while it works): a killed worker's claims lapse and another
 * takes them over.
 */
export const metaRecomputeRequests = pgTable(
  'meta_recompute_requests',
  {
    analyteId: integer('analyte_id')
      .primaryKey()
      .references(() => analytes.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull().default(1),
    /** The tracker records (jobs.id) that count this measurand in their progress. */
    jobIds: integer('job_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    requestedAt: timestamp('requested_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    claimedBy: text('claimed_by'),
    claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /**
     * Why the recompute was asked for (decision 048): the last request's cause when several merged.
     * `dataset` (a save, copy or delete), `appraisal` (final grades), `import`, `lookup`, `initial`;
     * the dataset it names, if any (no foreign key: a deleted dataset is a cause too); the role of
     * who asked (admin, curator, assessor, or system for the command line). Null for rows of a
     * previous release and leftover jobs of the former queue.
     */
    causeKind: text('cause_kind'),
    causeDatasetId: integer('cause_dataset_id'),
    causeRole: text('cause_role'),
  },
  (t) => [
    index('meta_recompute_requests_due_idx').on(t.requestedAt),
    check(
      'meta_recompute_requests_cause_kind_ck',
      sql`${t.causeKind} is null or ${t.causeKind} in ('dataset', 'appraisal', 'import', 'lookup', 'initial')`,
    ),
  ],
);

export const mailingListMembers = pgTable(
  'mailing_list_members',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    syncedAt: timestamp('synced_at', { withTimezone: true, mode: 'date' }),
    ...stamps,
  },
  (t) => [uniqueIndex('mailing_email_uq').on(sql`lower(${t.email})`)],
);

/**
 * A laboratory's test menu kept to open again (issue 32.4, decision 064): its link's unguessable id,
 * its owner when a signed-in user kept it (with an optional name), the lines as resolved, and the
 * values the sheet showed when it was kept (`kept_values`, compared with today's on opening).
 * A menu without an owner not opened for 13 months is swept.
 */
export const menus = pgTable(
  'menus',
  {
    /** 128 random bits, base64url (22 characters): the link is the key. */
    id: text('id').primaryKey(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    name: text('name'),
    level: text('level').notNull(),
    probability: doublePrecision('probability').notNull(),
    testCount: integer('test_count').notNull(),
    lines: jsonb('lines').$type<unknown[]>().notNull(),
    keptValues: jsonb('kept_values').$type<unknown[]>().notNull(),
    keptAt: timestamp('kept_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    ...version,
    ...stamps,
  },
  (t) => [
    index('menus_owner_idx').on(t.ownerId, t.updatedAt),
    index('menus_link_opened_idx')
      .on(t.openedAt)
      .where(sql`${t.ownerId} is null`),
    check('menus_test_count_ck', sql`${t.testCount} between 1 and 1000`),
    check('menus_level_ck', sql`${t.level} in ('optimal', 'desirable', 'minimum')`),
    check(
      'menus_name_ck',
      sql`${t.name} is null or (length(${t.name}) between 1 and 200 and ${t.ownerId} is not null)`,
    ),
    check('menus_id_ck', sql`length(${t.id}) >= 22`),
  ],
);

export const contentPages = pgTable('content_pages', {
  id: integer('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  markdown: text('markdown').notNull(),
  ...version,
  ...stamps,
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    entity: text('entity').notNull(),
    entityId: integer('entity_id').notNull(),
    action: text('action').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_entity_idx').on(t.entity, t.entityId),
    check(
      'audit_action_ck',
      sql`${t.action} in ('create', 'update', 'delete', 'appraisal_opened', 'assessor_assigned', 'appraisal_submitted', 'appraisal_disputed', 'appraisal_final', 'export')`,
    ),
  ],
);

/**
 * One appraisal round of a dataset (decision 008): two independent assessors (slots A and B), a third
 * on disagreement. At most one round per dataset is open (state other than `final`).
 */
export const appraisalRounds = pgTable(
  'appraisal_rounds',
  {
    id: serial('id').primaryKey(),
    datasetId: integer('dataset_id')
      .notNull()
      .references(() => bvSpecifications.id, { onDelete: 'cascade' }),
    state: text('state').notNull().default('unassigned'),
    openedBy: integer('opened_by').references(() => users.id, { onDelete: 'set null' }),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the round entered its present state (the board's ages). */
    stateChangedAt: timestamp('state_changed_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .defaultNow(),
    finalizedAt: timestamp('finalized_at', { withTimezone: true, mode: 'date' }),
    /** The 14 final grades, once final. */
    finalGrades: jsonb('final_grades').$type<Record<string, string>>(),
    ...version,
  },
  (t) => [
    index('appraisal_rounds_dataset_idx').on(t.datasetId),
    uniqueIndex('appraisal_rounds_open_uq')
      .on(t.datasetId)
      .where(sql`${t.state} <> 'final'`),
    check('appraisal_rounds_state_ck', sql`${t.state} in ('unassigned', 'waiting', 'disputed', 'final')`),
  ],
);

/** One assessor's appraisal in a round: assigned, then submitted once (its grades never change after). */
export const appraisals = pgTable(
  'appraisals',
  {
    id: serial('id').primaryKey(),
    roundId: integer('round_id')
      .notNull()
      .references(() => appraisalRounds.id, { onDelete: 'cascade' }),
    slot: text('slot').notNull(),
    assessorId: integer('assessor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    assignedBy: integer('assigned_by').references(() => users.id, { onDelete: 'set null' }),
    assignedAt: timestamp('assigned_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** A and B: all 14 items; the third: the disputed items only. */
    grades: jsonb('grades').$type<Record<string, string>>(),
    comments: jsonb('comments').$type<Record<string, string>>(),
    submittedAt: timestamp('submitted_at', { withTimezone: true, mode: 'date' }),
    ...version,
  },
  (t) => [
    uniqueIndex('appraisals_round_slot_uq').on(t.roundId, t.slot),
    index('appraisals_assessor_idx').on(t.assessorId),
    check('appraisals_slot_ck', sql`${t.slot} in ('A', 'B', 'third')`),
  ],
);

/** Small key/value facts about the database itself (e.g. that demo data was seeded). */
export const appState = pgTable('app_state', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
