import { EVIDENCE_CLASSES, QUALITY_ITEMS, type QualityItemKey } from '@bvdb/domain';
import { z } from 'zod';
import { ErrorSchema, FlagSchema, IdParamsSchema, errorsFor, IdSchema, isoDateTimeSchema } from './common.js';
import { MatrixSchema, DiseaseSchema } from './lookups.contract.js';
import { defineRoute, STAFF } from './route.js';

/** A dataset's evidence class (issue 47.4, decision 099). */
export const EvidenceClassSchema = z
  .enum(EVIDENCE_CLASSES)
  .describe(
    'What kind of evidence the dataset is: "direct-anova" (a direct study analysed by ANOVA, with a confidence interval; every dataset unless entered otherwise), "direct-bayesian" (a direct study with a Bayesian credible interval) or "indirect" (routine data)',
  );

const num = z.number().nullable();
const int = z.number().int().nullable();
const grade = z.enum(['A', 'B', 'C', 'D', 'NA']);

/** The 14 BIVAC quality-item grades, in checklist order. */
export const ScoresSchema = z.object(
  Object.fromEntries(
    QUALITY_ITEMS.map((item) => [
      item.key,
      grade.describe(
        `BIVAC item ${item.number} (${item.label}): A best, B, C, D (excluded), NA not applicable`,
      ),
    ]),
  ) as Record<QualityItemKey, typeof grade>,
);

export const DatasetReferenceSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  author: z.string(),
  journal: z.string(),
  volume: z.number().int(),
  pages: z.string(),
  year_of_publication: z.number().int().nullable(),
  doi: z.string().nullable(),
  pubmed_link: z.string().nullable(),
});

/**
 * A dataset (BV specification) as the public API returns it: the flattened reference and analyte
 * fields of the live system, with the defaults of spec section 3 applied.
 */
export const DatasetSchema = z.object({
  id: z.number().int().describe('Stable dataset id (kept as imported from the live database)'),
  unique_identifier: z.string(),
  analyte_id: z.number().int(),
  analyte: z.object({ id: z.number().int(), display_name: z.string() }),
  analyte_display_name: z.string(),
  reference_id: z.number().int(),
  reference: DatasetReferenceSchema,
  reference_title: z.string(),
  reference_author: z.string(),
  reference_journal: z.string(),
  reference_volume: z.number().int(),
  reference_pages: z.string(),
  reference_year_of_publication: z.number().int().nullable(),
  reference_doi: z.string().nullable(),
  reference_pubmed_link: z.string().nullable(),
  matrix_id: z.number().int(),
  matrix: MatrixSchema.nullable(),
  estimates_of_cvi: num.describe('Within-subject biological variation (CVI) reported by the study, in %'),
  estimates_of_cvg: num.describe('Between-subject biological variation (CVG) reported by the study, in %'),
  reported_cvi_lower_confidence_interval: num.describe(
    'Lower limit of the 95% confidence interval of CVI as the paper reports it, in %',
  ),
  reported_cvi_upper_confidence_interval: num.describe(
    'Upper limit of the 95% confidence interval of CVI as the paper reports it, in %',
  ),
  reported_cvg_lower_confidence_interval: num.describe(
    'Lower limit of the 95% confidence interval of CVG as the paper reports it, in %',
  ),
  reported_cvg_upper_confidence_interval: num.describe(
    'Upper limit of the 95% confidence interval of CVG as the paper reports it, in %',
  ),
  calculated_within_bv_lower_ci: num.describe(
    'Lower limit of the 95% CI of CVI calculated from the study design (when the paper gives none), in %',
  ),
  calculated_within_bv_upper_ci: num.describe(
    'Upper limit of the 95% CI of CVI calculated from the study design, in %',
  ),
  calculated_between_bv_lower_ci: num.describe(
    'Lower limit of the 95% CI of CVG calculated from the study design, in %',
  ),
  calculated_between_bv_upper_ci: num.describe(
    'Upper limit of the 95% CI of CVG calculated from the study design, in %',
  ),
  analytical_cv: num.describe('Analytical CV (CVA) of the study, in %'),
  sex_for_meta_analysis: z.string().nullable(),
  age_mean: num.describe('Mean age of the subjects, in years'),
  age_min: num.describe('Youngest subject, in years'),
  age_max: num.describe('Oldest subject, in years'),
  age_sd: num.describe('Standard deviation of the age, in years'),
  state_of_well_being_id: int,
  state_of_well_being: z.string().nullable(),
  ethnicity_id: int,
  ethnicity: z.object({ id: z.number().int(), ethnicity_expansion: z.string() }).nullable(),
  disease_states: z.array(DiseaseSchema),
  number_of_subjects: int.describe('Subjects recruited'),
  number_of_males: int,
  number_of_females: int,
  number_of_subjects_included_in_bv_estimation: int.describe('Subjects whose results entered the estimate'),
  study_duration: num.describe('Length of the study, in study_duration_units'),
  study_duration_units: z.string().nullable(),
  samples_per: num.describe('One sample per this many interval_units'),
  interval_units: z.string().nullable(),
  sampling_interval: z.string().describe('"N per unit" or "No Sampling Intervals"'),
  sampling_times_start_time: z.string().nullable(),
  sampling_times_end_time: z.string().nullable(),
  average_number_of_samples_used_for_bv_estimation: num.describe(
    'Samples per subject used for the estimate (mean)',
  ),
  average_number_of_replicates: num.describe('Replicate measurements per sample (mean)'),
  preanalytical_issues: z.string().nullable(),
  concentration_mean: num.describe('Mean concentration of the subjects, in `unit`'),
  concentration_min: num.describe('Lowest concentration, in `unit`'),
  concentration_max: num.describe('Highest concentration, in `unit`'),
  concentration_sd: num.describe('Standard deviation of the concentration, in `unit`'),
  concentration_standard_unit_mean: num.describe(
    'Mean concentration, in standard_unit_for_reporting_of_analyte',
  ),
  concentration_standard_unit_min: num.describe(
    'Lowest concentration, in standard_unit_for_reporting_of_analyte',
  ),
  concentration_standard_unit_max: num.describe(
    'Highest concentration, in standard_unit_for_reporting_of_analyte',
  ),
  concentration_standard_unit_sd: num.describe(
    'Standard deviation of the concentration, in standard_unit_for_reporting_of_analyte',
  ),
  unit_id: int,
  unit: z.string().nullable(),
  second_unit_id: int,
  second_unit: z.string().nullable(),
  standard_unit_for_reporting_of_analyte: z.string().nullable(),
  second_standard_unit: z.string().nullable(),
  overall_principle_method_id: int,
  overall_principle_method: z.string().nullable(),
  ...ScoresSchema.shape,
  total_score: z.string().describe('Overall BIVAC grade: the worst of the 14 items (A best … D), or "NA"'),
  score_display: z.string().describe('The 14 grades in checklist order, e.g. "A A B ..."'),
  scoring_comment: z.string().nullable(),
  healthy: FlagSchema.describe('1 when the subjects are healthy'),
  adult: FlagSchema.describe('1 when the subjects are adults'),
  weekly_samplings: FlagSchema.describe('1 when samples were taken weekly'),
  review: FlagSchema.describe('1 once reviewed'),
  published: FlagSchema.describe('1 when visible to the public'),
  include_in_meta_analysis: FlagSchema.describe('1 when the curators include it in the meta-analysis'),
  evidence_class: EvidenceClassSchema,
  snomed_ct: z.string().nullable(),
  npu: z.string().nullable(),
  loinc: z.string().nullable(),
  comment: z.string().nullable(),
  is_demo: z.boolean(),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Dataset = z.infer<typeof DatasetSchema>;

const GRADE_KEYS = Object.fromEntries(QUALITY_ITEMS.map((item) => [item.key, true])) as Record<
  QualityItemKey,
  true
>;

/**
 * An item of the paged legacy list (`limit`/`offset`), as the live system sends it: `measurand` is the
 * measurand's NAME and `reference` a citation string, and the 14 BIVAC grades sit under `grades`.
 * (In the unpaged list and in one dataset, `measurand` is the grade of BIVAC item 4 and `reference`
 * an object: the two forms are the live system's, kept as they are.)
 */
export const LegacyDatasetPageItemSchema = DatasetSchema.omit({ ...GRADE_KEYS, reference: true }).extend({
  measurand: z.string().describe("The measurand's display name (not a grade, unlike the unpaged list)"),
  reference: z
    .string()
    .describe(
      'Citation of the reference: "Authors. Title. Journal Year;Volume:Pages." (missing parts left out)',
    ),
  grades: ScoresSchema.describe('The 14 BIVAC quality-item grades (A best … D excluded, NA not applicable)'),
});
export type LegacyDatasetPageItem = z.infer<typeof LegacyDatasetPageItemSchema>;

export const LegacyDatasetPageSchema = z.object({
  meta: z.object({ total: z.number().int().describe('Number of visible datasets matching, all pages') }),
  data: z.array(LegacyDatasetPageItemSchema),
});

/** The unpaged list: the spec's `{code, datasets}` (plus the count). */
export const DatasetListSchema = z.object({
  code: z.literal('success'),
  datasets: z.array(DatasetSchema),
  total: z.number().int(),
});

const listQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe('Page size (1–1000). With limit or offset the answer is the paged form {meta, data}'),
  offset: z.coerce.number().int().min(0).optional().describe('Items to skip (past the end: an empty page)'),
  updated_since: isoDateTimeSchema('updated_since must be an ISO 8601 timestamp with an offset').optional(),
  format: z.enum(['json']).optional(),
});

export const listDatasets = defineRoute({
  method: 'GET',
  path: '/api/bv_specifications',
  summary:
    'Legacy: every visible dataset. Without limit/offset: {code, datasets, total}, streamed, ordered by id. ' +
    'With limit or offset: the paged form {meta: {total}, data}, ordered by id.',
  tags: ['datasets', 'legacy'],
  access: 'public',
  query: listQuery,
  responses: {
    200: z.union([DatasetListSchema, LegacyDatasetPageSchema]),
    400: ErrorSchema,
  },
});

/**
 * The unpaged form of `listDatasets` alone, for clients that never page (bvdb's own list page): the
 * same route, typed with the one answer it gets. Not registered on its own.
 */
export const listAllDatasets = defineRoute({
  ...listDatasets,
  query: listQuery.omit({ limit: true, offset: true }),
  responses: { 200: DatasetListSchema, 400: ErrorSchema },
});

/** The estimates of one dataset under the live system's names. */
export const BvEstimateSchema = z.object({
  bv_specification_id: z.number().int(),
  within_subject_variation: num.describe(
    'CVI, the within-subject biological variation, in % (estimates_of_cvi)',
  ),
  between_subject_variation: num.describe(
    'CVG, the between-subject biological variation, in % (estimates_of_cvg)',
  ),
  analytical_variation: num.describe('CVA, the analytical CV of the study, in % (analytical_cv)'),
});

export type BvEstimate = z.infer<typeof BvEstimateSchema>;

export const getDataset = defineRoute({
  method: 'GET',
  path: '/api/bv_specifications/:id',
  summary: 'Legacy: one dataset, with its estimates under the live names in bv_estimates',
  tags: ['datasets', 'legacy'],
  access: 'public',
  params: IdParamsSchema,
  responses: {
    200: z.object({ dataset: DatasetSchema, bv_estimates: z.array(BvEstimateSchema) }),
    ...errorsFor(400, 404),
  },
});

export const datasetsByMeasurand = defineRoute({
  method: 'GET',
  path: '/api/bv_specifications/by_measurand',
  summary: 'Visible datasets grouped by measurand display name',
  tags: ['datasets'],
  access: 'public',
  responses: { 200: z.object({ datasets: z.record(z.string(), z.array(DatasetSchema)) }) },
});

export const specsForAnalytes = defineRoute({
  ...datasetsByMeasurand,
  path: '/api/bv_specifications/specs_for_analytes',
  summary: 'Visible datasets grouped by measurand display name (legacy alias of by_measurand)',
});

export const datasetsOfAnalyte = defineRoute({
  method: 'GET',
  path: '/api/analyte_specifications/:analyte_id',
  summary: 'Visible datasets of one measurand',
  tags: ['datasets'],
  access: 'public',
  params: z.object({ analyte_id: IdSchema }),
  responses: { 200: z.array(DatasetSchema), 404: ErrorSchema },
});

export const datasetsOfReference = defineRoute({
  method: 'GET',
  path: '/api/references/:id/bv_specifications',
  summary: 'Visible datasets of one reference',
  tags: ['datasets'],
  access: 'public',
  params: IdParamsSchema,
  responses: {
    200: z.object({ datasets: z.array(DatasetSchema), export_url: z.string() }),
    404: ErrorSchema,
  },
});

export const manageByAnalyte = defineRoute({
  method: 'GET',
  path: '/api/bv_specifications/manage_by_analyte',
  summary: 'Every dataset of one measurand, published or not, for curators',
  tags: ['datasets'],
  access: STAFF,
  query: z.object({ id: IdSchema }),
  responses: {
    200: z.object({ dataset: z.array(DatasetSchema), export_url: z.string() }),
    ...errorsFor(400, 401, 404),
  },
});

export const manageByReference = defineRoute({
  ...manageByAnalyte,
  path: '/api/bv_specifications/manage_by_reference',
  summary: 'Every dataset of one reference, published or not, for curators',
});
