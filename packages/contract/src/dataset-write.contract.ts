import {
  INTERVAL_UNITS,
  NON_HEALTHY_STATE_ID,
  QUALITY_ITEMS,
  SEXES_FOR_META_ANALYSIS,
  type QualityItem,
} from '@bvdb/domain';
import { z } from 'zod';
import { ErrorSchema, FlagSchema, IdParamsSchema } from './common.js';
import { DatasetSchema, ScoresSchema } from './datasets.contract.js';
import { defineRoute } from './route.js';

// ---- the create/edit payload `bv_specification` (spec sections 3 and 5, decision 002) ----

/** The messages of spec section 5, verbatim: the form shows them and the server answers them. */
export const DATASET_MESSAGES = {
  reference: 'Reference is required.',
  uniqueIdentifier: 'Unique Identifier is required.',
  matrix: 'Matrix selection is required.',
  nonNegative: 'Must be a non-negative number.',
  diseaseStates: 'Please select at least one disease state.',
  samplingTimes: 'Both start and end times must be provided.',
  analyte: 'Measurand is required.',
} as const;

const INT_MAX = 2_147_483_647;

/** '' and an absent value both mean "not filled in": stored as null (spec section 5). */
const blankToNull = (v: unknown) => (v === '' || v === undefined ? null : v);

/** A numeric field: when filled, a number not below zero; empty is null. */
const nonNegative = () =>
  z.preprocess(
    blankToNull,
    z
      .number(DATASET_MESSAGES.nonNegative)
      .min(0, DATASET_MESSAGES.nonNegative)
      .max(1e12, 'Must be at most 1000000000000.')
      .nullable(),
  );

/** A count (stored as an integer): non-negative and whole. */
const nonNegativeInt = () =>
  z.preprocess(
    blankToNull,
    z
      .number(DATASET_MESSAGES.nonNegative)
      .min(0, DATASET_MESSAGES.nonNegative)
      .int('Must be a whole number.')
      .max(INT_MAX, `Must be at most ${INT_MAX}.`)
      .nullable(),
  );

/** A required lookup id, with the spec's message whatever is wrong with it. */
const requiredId = (message: string) =>
  z.number(message).int(message).positive(message).max(INT_MAX, message);

/** An optional lookup id: '' and null mean none. */
const optionalId = (label: string) =>
  z.preprocess(
    blankToNull,
    z
      .number(`${label} must be chosen from the list.`)
      .int(`${label} must be chosen from the list.`)
      .positive(`${label} must be chosen from the list.`)
      .max(INT_MAX, `${label} must be chosen from the list.`)
      .nullable(),
  );

/** Optional free text: trimmed; blank is stored as null. Never HTML: it is shown as plain text. */
const optionalText = (max: number) =>
  z.preprocess(
    (v) => {
      const t = typeof v === 'string' ? v.trim() : v;
      return t === '' || t === undefined ? null : t;
    },
    z.string('Must be text.').max(max, `Must be at most ${max} characters.`).nullable(),
  );

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(blankToNull, z.enum(values, { error: `Must be one of: ${values.join(', ')}.` }).nullable());

/** A clock time like 07:00 (24-hour); blank is null. */
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const optionalTime = () =>
  z.preprocess(
    blankToNull,
    z
      .string('Use the format HH:MM, e.g. 07:00.')
      .regex(TIME_PATTERN, 'Use the format HH:MM, e.g. 07:00.')
      .nullable(),
  );

/** 0/1 as the live system sends them; true/false accepted too (decision 001). Absent is off. */
const flag = () =>
  z
    .union([z.literal(0), z.literal(1), z.boolean()], { error: 'Must be 0 or 1.' })
    .default(0)
    .transform((v): 0 | 1 => (v === 1 || v === true ? 1 : 0));

/** The grade of one BIVAC item, restricted to the grades its item allows (domain table). */
function gradeOf<I extends QualityItem>(item: I) {
  const allowed = item.allowedGrades as unknown as readonly [string, ...string[]];
  return z.enum(allowed, {
    error: (issue) =>
      `QI${item.number} ${item.label}: ${
        issue.input === undefined || issue.input === null || issue.input === ''
          ? 'a grade is required'
          : `grade ${typeof issue.input === 'string' ? issue.input : JSON.stringify(issue.input)} is not allowed`
      } (allowed: ${allowed.join(', ')}).`,
  }) as unknown as z.ZodType<I['allowedGrades'][number], string>;
}

type GradeShape = { [I in QualityItem as I['key']]: z.ZodType<I['allowedGrades'][number], string> };
const gradeShape = Object.fromEntries(QUALITY_ITEMS.map((item) => [item.key, gradeOf(item)])) as GradeShape;

export const DatasetInputObjectSchema = z
  .object({
    analyte_id: requiredId(DATASET_MESSAGES.analyte),
    reference_id: requiredId(DATASET_MESSAGES.reference),
    unique_identifier: z
      .string(DATASET_MESSAGES.uniqueIdentifier)
      .trim()
      .min(1, DATASET_MESSAGES.uniqueIdentifier)
      .max(200, 'Must be at most 200 characters.'),
    matrix_id: requiredId(DATASET_MESSAGES.matrix),
    ...gradeShape,
    scoring_comment: optionalText(4000),
    // population
    age_min: nonNegative(),
    age_max: nonNegative(),
    age_mean: nonNegative(),
    age_sd: nonNegative(),
    state_of_well_being_id: optionalId('State of well-being'),
    disease_state_ids: z
      .array(
        z.number('Disease states must be chosen from the list.').int().positive().max(INT_MAX),
        'Disease states must be a list.',
      )
      .max(50, 'At most 50 disease states.')
      .default([])
      .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
    ethnicity_id: optionalId('Ethnicity'),
    sex_for_meta_analysis: optionalEnum(SEXES_FOR_META_ANALYSIS),
    number_of_subjects: nonNegativeInt(),
    number_of_males: nonNegativeInt(),
    number_of_females: nonNegativeInt(),
    number_of_subjects_included_in_bv_estimation: nonNegativeInt(),
    // study design and sampling
    study_duration: nonNegative(),
    study_duration_units: optionalEnum(INTERVAL_UNITS),
    samples_per: nonNegative(),
    interval_units: optionalEnum(INTERVAL_UNITS),
    sampling_times_start_time: optionalTime(),
    sampling_times_end_time: optionalTime(),
    average_number_of_samples_used_for_bv_estimation: nonNegative(),
    average_number_of_replicates: nonNegative(),
    preanalytical_issues: optionalText(4000),
    // estimates
    estimates_of_cvi: nonNegative(),
    reported_cvi_lower_confidence_interval: nonNegative(),
    reported_cvi_upper_confidence_interval: nonNegative(),
    estimates_of_cvg: nonNegative(),
    reported_cvg_lower_confidence_interval: nonNegative(),
    reported_cvg_upper_confidence_interval: nonNegative(),
    analytical_cv: nonNegative(),
    // concentrations
    concentration_mean: nonNegative(),
    concentration_min: nonNegative(),
    concentration_max: nonNegative(),
    concentration_sd: nonNegative(),
    concentration_standard_unit_mean: nonNegative(),
    concentration_standard_unit_min: nonNegative(),
    concentration_standard_unit_max: nonNegative(),
    concentration_standard_unit_sd: nonNegative(),
    // units and method (shown on the dataset view; optional in the payload)
    unit_id: optionalId('Unit'),
    second_unit_id: optionalId('Second unit'),
    standard_unit_for_reporting_of_analyte: optionalText(200),
    second_standard_unit: optionalText(200),
    overall_principle_method_id: optionalId('Analytical principle method'),
    // codes and text
    snomed_ct: optionalText(200),
    npu: optionalText(200),
    loinc: optionalText(200),
    comment: optionalText(4000),
    // flags
    healthy: flag(),
    adult: flag(),
    weekly_samplings: flag(),
    review: flag(),
    published: flag(),
    include_in_meta_analysis: flag(),
  })
  .strict();

type Issues = readonly { path?: readonly PropertyKey[] | undefined }[];
/** Run a cross-field rule even when other fields are wrong, unless one of its own fields is. */
const whenValid =
  (...keys: string[]) =>
  (payload: { value: unknown; issues: Issues }) =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    payload.issues.every((i) => !keys.includes(String(i.path?.[0])));

/**
 * The cross-field rules of spec section 5, each reported on the field a person would fix. They run
 * alongside the field rules, so a form shows every message at once.
 */
export const DatasetInputSchema = DatasetInputObjectSchema.refine(
  (v) => !(v.state_of_well_being_id === NON_HEALTHY_STATE_ID && v.disease_state_ids.length === 0),
  {
    path: ['disease_state_ids'],
    message: DATASET_MESSAGES.diseaseStates,
    when: whenValid('state_of_well_being_id', 'disease_state_ids'),
  },
)
  .refine((v) => v.sampling_times_start_time !== null || v.sampling_times_end_time === null, {
    path: ['sampling_times_start_time'],
    message: DATASET_MESSAGES.samplingTimes,
    when: whenValid('sampling_times_start_time', 'sampling_times_end_time'),
  })
  .refine((v) => v.sampling_times_end_time !== null || v.sampling_times_start_time === null, {
    path: ['sampling_times_end_time'],
    message: DATASET_MESSAGES.samplingTimes,
    when: whenValid('sampling_times_start_time', 'sampling_times_end_time'),
  });
/** The payload as sent (numbers, '' or null; flags 0/1 or booleans). */
export type DatasetInputIn = z.input<typeof DatasetInputSchema>;
/** The payload after validation: blanks are null, flags 0/1, disease ids unique and sorted. */
export type DatasetInput = z.output<typeof DatasetInputSchema>;

const num = z.number().nullable();
const int = z.number().int().nullable();
const text = z.string().nullable();
const units = z.enum(INTERVAL_UNITS).nullable();

/**
 * The stored values in the payload's shape, as the edit form loads them (an answer: plain types, no
 * transforms, so the server can check what it sends).
 */
export const DatasetValuesSchema = z.object({
  analyte_id: z.number().int(),
  reference_id: z.number().int(),
  unique_identifier: z.string(),
  matrix_id: z.number().int(),
  ...ScoresSchema.shape,
  scoring_comment: text,
  age_min: num,
  age_max: num,
  age_mean: num,
  age_sd: num,
  state_of_well_being_id: int,
  disease_state_ids: z.array(z.number().int()),
  ethnicity_id: int,
  sex_for_meta_analysis: z.enum(SEXES_FOR_META_ANALYSIS).nullable(),
  number_of_subjects: int,
  number_of_males: int,
  number_of_females: int,
  number_of_subjects_included_in_bv_estimation: int,
  study_duration: num,
  study_duration_units: units,
  samples_per: num,
  interval_units: units,
  sampling_times_start_time: text,
  sampling_times_end_time: text,
  average_number_of_samples_used_for_bv_estimation: num,
  average_number_of_replicates: num,
  preanalytical_issues: text,
  estimates_of_cvi: num,
  reported_cvi_lower_confidence_interval: num,
  reported_cvi_upper_confidence_interval: num,
  estimates_of_cvg: num,
  reported_cvg_lower_confidence_interval: num,
  reported_cvg_upper_confidence_interval: num,
  analytical_cv: num,
  concentration_mean: num,
  concentration_min: num,
  concentration_max: num,
  concentration_sd: num,
  concentration_standard_unit_mean: num,
  concentration_standard_unit_min: num,
  concentration_standard_unit_max: num,
  concentration_standard_unit_sd: num,
  unit_id: int,
  second_unit_id: int,
  standard_unit_for_reporting_of_analyte: text,
  second_standard_unit: text,
  overall_principle_method_id: int,
  snomed_ct: text,
  npu: text,
  loinc: text,
  comment: text,
  healthy: FlagSchema,
  adult: FlagSchema,
  weekly_samplings: FlagSchema,
  review: FlagSchema,
  published: FlagSchema,
  include_in_meta_analysis: FlagSchema,
});
export type DatasetValues = z.infer<typeof DatasetValuesSchema>;

/** What the edit form loads: the editable values and the version they are at. */
export const DatasetFormSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  updated_at: z.string(),
  bv_specification: DatasetValuesSchema,
});
export type DatasetForm = z.infer<typeof DatasetFormSchema>;

const writeErrors = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  422: ErrorSchema,
} as const;

export const createDataset = defineRoute({
  method: 'POST',
  path: '/bv_specifications',
  summary:
    'Create a dataset (BV specification). Body `{bv_specification}`; unknown fields are refused (400), unknown lookup ids are 422 with field messages',
  tags: ['datasets'],
  access: 'signed-in',
  body: z.object({ bv_specification: DatasetInputSchema }).strict(),
  responses: { 201: z.object({ dataset: DatasetSchema }), ...writeErrors },
});

export const getDatasetForm = defineRoute({
  method: 'GET',
  path: '/api/bv_specifications/:id/form',
  summary: 'The editable values of a dataset and its version, for the edit and copy forms',
  tags: ['datasets'],
  access: 'signed-in',
  params: IdParamsSchema,
  responses: { 200: DatasetFormSchema, 401: ErrorSchema, 404: ErrorSchema },
});

export const updateDataset = defineRoute({
  method: 'PUT',
  path: '/bv_specifications/:id',
  summary:
    'Replace the values of a dataset. `version` is the one the edit started from; 409 with `current` (the form values now) when someone saved after it',
  tags: ['datasets'],
  access: 'signed-in',
  params: IdParamsSchema,
  body: z
    .object({
      bv_specification: DatasetInputSchema,
      version: z.number('version is required').int().positive(),
    })
    .strict(),
  responses: {
    200: z.object({ dataset: DatasetSchema }),
    ...writeErrors,
    404: ErrorSchema,
    409: ErrorSchema,
  },
});

export const deleteDataset = defineRoute({
  method: 'DELETE',
  path: '/api/bv_specifications/:id',
  summary: 'Delete a dataset. `version` is the one the person saw; 409 with `current` when it changed since',
  tags: ['datasets'],
  access: 'signed-in',
  params: IdParamsSchema,
  query: z.object({ version: z.coerce.number('version is required').int().positive() }).strict(),
  responses: {
    200: z.object({ code: z.literal('success') }),
    400: ErrorSchema,
    401: ErrorSchema,
    403: ErrorSchema,
    404: ErrorSchema,
    409: ErrorSchema,
  },
});
