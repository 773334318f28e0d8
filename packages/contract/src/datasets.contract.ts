import { QUALITY_ITEMS, type QualityItemKey } from '@bvdb/domain';
import { z } from 'zod';
import { ErrorSchema, FlagSchema, IdParamsSchema, errorsFor } from './common.js';
import { MatrixSchema, DiseaseSchema } from './lookups.contract.js';
import { defineRoute } from './route.js';

const num = z.number().nullable();
const int = z.number().int().nullable();
const grade = z.enum(['A', 'B', 'C', 'D', 'NA']);

/** The 14 BIVAC quality-item grades, in checklist order. */
export const ScoresSchema = z.object(
  Object.fromEntries(QUALITY_ITEMS.map((item) => [item.key, grade])) as Record<QualityItemKey, typeof grade>,
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
  id: z.number().int(),
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
  estimates_of_cvi: num,
  estimates_of_cvg: num,
  reported_cvi_lower_confidence_interval: num,
  reported_cvi_upper_confidence_interval: num,
  reported_cvg_lower_confidence_interval: num,
  reported_cvg_upper_confidence_interval: num,
  calculated_within_bv_lower_ci: num,
  calculated_within_bv_upper_ci: num,
  calculated_between_bv_lower_ci: num,
  calculated_between_bv_upper_ci: num,
  analytical_cv: num,
  sex_for_meta_analysis: z.string().nullable(),
  age_mean: num,
  age_min: num,
  age_max: num,
  age_sd: num,
  state_of_well_being_id: int,
  state_of_well_being: z.string().nullable(),
  ethnicity_id: int,
  ethnicity: z.object({ id: z.number().int(), ethnicity_expansion: z.string() }).nullable(),
  disease_states: z.array(DiseaseSchema),
  number_of_subjects: int,
  number_of_males: int,
  number_of_females: int,
  number_of_subjects_included_in_bv_estimation: int,
  study_duration: num,
  study_duration_units: z.string().nullable(),
  samples_per: num,
  interval_units: z.string().nullable(),
  sampling_interval: z.string().describe('"N per unit" or "No Sampling Intervals"'),
  sampling_times_start_time: z.string().nullable(),
  sampling_times_end_time: z.string().nullable(),
  average_number_of_samples_used_for_bv_estimation: num,
  average_number_of_replicates: num,
  preanalytical_issues: z.string().nullable(),
  concentration_mean: num,
  concentration_min: num,
  concentration_max: num,
  concentration_sd: num,
  concentration_standard_unit_mean: num,
  concentration_standard_unit_min: num,
  concentration_standard_unit_max: num,
  concentration_standard_unit_sd: num,
  unit_id: int,
  unit: z.string().nullable(),
  second_unit_id: int,
  second_unit: z.string().nullable(),
  standard_unit_for_reporting_of_analyte: z.string().nullable(),
  second_standard_unit: z.string().nullable(),
  overall_principle_method_id: int,
  overall_principle_method: z.string().nullable(),
  ...ScoresSchema.shape,
  total_score: z.string().describe('Overall BIVAC grade (worst item), or "NA"'),
  score_display: z.string().describe('The 14 grades in checklist order, e.g. "A A B ..."'),
  scoring_comment: z.string().nullable(),
  healthy: FlagSchema,
  adult: FlagSchema,
  weekly_samplings: FlagSchema,
  review: FlagSchema,
  published: FlagSchema,
  include_in_meta_analysis: FlagSchema,
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

export const listDatasets = defineRoute({
  method: 'GET',
  path: '/api/bv_specifications',
  summary: 'Every visible dataset',
  tags: ['datasets'],
  access: 'public',
  query: z.object({
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    updated_since: z.iso.datetime({ offset: true }).optional(),
  }),
  responses: {
    200: z.object({ code: z.literal('success'), datasets: z.array(DatasetSchema), total: z.number().int() }),
    400: ErrorSchema,
  },
});

export const getDataset = defineRoute({
  method: 'GET',
  path: '/api/bv_specifications/:id',
  summary: 'One dataset',
  tags: ['datasets'],
  access: 'public',
  params: IdParamsSchema,
  responses: { 200: z.object({ dataset: DatasetSchema }), 404: ErrorSchema },
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
  params: z.object({ analyte_id: z.coerce.number().int().positive() }),
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
  access: 'signed-in',
  query: z.object({ id: z.coerce.number().int().positive() }),
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
