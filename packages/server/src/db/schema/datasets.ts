/** The datasets (`bv_specifications`), their disease states and the study's raw results file. */
import {
  INTERVAL_UNITS,
  QUALITY_ITEMS,
  type EvidenceClass,
  type Grade,
  type SexForMetaAnalysis,
  type TimeUnit,
} from '@bvdb/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { analytes } from './analytes.js';
import { bytea, stamps, version } from './columns.js';
import {
  analyticalPrincipleMethods,
  diseaseStates,
  ethnicities,
  matrices,
  statesOfWellBeing,
  units,
} from './lookups.js';
import { references } from './references.js';
import { users } from './users.js';

const GRADES_SQL = (col: string, allowed: readonly string[]) =>
  sql.raw(`"${col}" in (${allowed.map((g) => `'${g}'`).join(', ')})`);

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
    /**
     * The kind of evidence (issue 47.4, decision 099): a direct study analysed by ANOVA with a
     * confidence interval (every dataset before 0015), one with a Bayesian credible interval, or
     * routine data (indirect). Only `direct-anova` enters the global estimate.
     */
    evidenceClass: text('evidence_class').$type<EvidenceClass>().notNull().default('direct-anova'),
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
    check(
      'bvs_evidence_class_ck',
      sql`${t.evidenceClass} in ('direct-anova', 'direct-bayesian', 'indirect')`,
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
