import {
  DEFAULT_EVIDENCE_CLASS,
  EVIDENCE_CLASSES,
  INTERVAL_UNITS,
  QUALITY_ITEMS,
  SEXES_FOR_META_ANALYSIS,
  type QualityItem,
} from '@bvdb/domain';
import { z } from 'zod';
import { FlagSchema } from './common.js';
import { ScoresSchema } from './datasets.contract.js';

/**
 * The editable fields of a dataset (BV specification), listed once: the create/edit payload, the
 * values the edit form loads, the form's inputs and the server's column mapping are all derived
 * from this table. Each field has the API name the live system uses (which is also its column name)
 * and a kind that says how the form and the database hold it.
 */

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

/**
 * id and number: numeric inputs (blank is null); text, choice and grade: strings; flag: a 0/1
 * checkbox (a boolean column); ids: the ticked disease states (their own table).
 */
export type DatasetFieldKind = 'id' | 'number' | 'text' | 'choice' | 'grade' | 'flag' | 'ids';

/** One field: its kind, its rule in the payload (`input`) and its type as stored (`value`). */
interface DatasetField<K extends DatasetFieldKind, I extends z.ZodType, V extends z.ZodType> {
  kind: K;
  input: I;
  value: V;
}

const field = <K extends DatasetFieldKind, I extends z.ZodType, V extends z.ZodType>(
  kind: K,
  input: I,
  value: V,
): DatasetField<K, I, V> => ({ kind, input, value });

const INT_MAX = 2_147_483_647;

// The stored types; shared instances, as the OpenAPI description has always had them.
const num = z.number().nullable();
const int = z.number().int().nullable();
const text = z.string().nullable();
const units = z.enum(INTERVAL_UNITS).nullable();

/** '' and an absent value both mean "not filled in": stored as null (spec section 5). */
const blankToNull = (v: unknown) => (v === '' || v === undefined ? null : v);

/** A number not below zero (the rule both numeric kinds start from). */
const nonNegativeNumber = () => z.number(DATASET_MESSAGES.nonNegative).min(0, DATASET_MESSAGES.nonNegative);

/** A numeric field: when filled, a number not below zero; empty is null. */
const nonNegative = () =>
  field(
    'number',
    z.preprocess(blankToNull, nonNegativeNumber().max(1e12, 'Must be at most 1000000000000.').nullable()),
    num,
  );

/** A count (stored as an integer): non-negative and whole. */
const nonNegativeInt = () =>
  field(
    'number',
    z.preprocess(
      blankToNull,
      nonNegativeNumber()
        .int('Must be a whole number.')
        .max(INT_MAX, `Must be at most ${INT_MAX}.`)
        .nullable(),
    ),
    int,
  );

/** A required lookup id, with the spec's message whatever is wrong with it. */
const requiredId = (message: string) =>
  field('id', z.number(message).int(message).positive(message).max(INT_MAX, message), z.number().int());

/** An optional lookup id: '' and null mean none. */
const optionalId = (label: string) => {
  const message = `${label} must be chosen from the list.`;
  return field(
    'id',
    z.preprocess(
      blankToNull,
      z.number(message).int(message).positive(message).max(INT_MAX, message).nullable(),
    ),
    int,
  );
};

/** Optional free text: trimmed; blank is stored as null. Never HTML: it is shown as plain text. */
const optionalText = (max: number) =>
  field(
    'text',
    z.preprocess(
      (v) => {
        const t = typeof v === 'string' ? v.trim() : v;
        return t === '' || t === undefined ? null : t;
      },
      z.string('Must be text.').max(max, `Must be at most ${max} characters.`).nullable(),
    ),
    text,
  );

/** One of a fixed list; blank is null. */
const optionalChoice = <T extends readonly [string, ...string[]], V extends z.ZodType>(values: T, value: V) =>
  field(
    'choice',
    z.preprocess(blankToNull, z.enum(values, { error: `Must be one of: ${values.join(', ')}.` }).nullable()),
    value,
  );

/**
 * The evidence class (issue 47.4, decision 099): one of the domain's classes; blank or absent is the
 * default, a direct ANOVA study (as every dataset entered before the class existed).
 */
const evidenceClass = () =>
  field(
    'choice',
    z.preprocess(
      (v) => (v === '' || v === undefined || v === null ? DEFAULT_EVIDENCE_CLASS : v),
      z.enum(EVIDENCE_CLASSES, { error: `Must be one of: ${EVIDENCE_CLASSES.join(', ')}.` }),
    ),
    z.enum(EVIDENCE_CLASSES),
  );

/** A clock time like 07:00 (24-hour); blank is null. */
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const optionalTime = () =>
  field(
    'text',
    z.preprocess(
      blankToNull,
      z
        .string('Use the format HH:MM, e.g. 07:00.')
        .regex(TIME_PATTERN, 'Use the format HH:MM, e.g. 07:00.')
        .nullable(),
    ),
    text,
  );

/** 0/1 as the live system sends them; true/false accepted too (decision 001). Absent is off. */
const flag = () =>
  field(
    'flag',
    z
      .union([z.literal(0), z.literal(1), z.boolean()], { error: 'Must be 0 or 1.' })
      .default(0)
      .transform((v): 0 | 1 => (v === 1 || v === true ? 1 : 0)),
    FlagSchema,
  );

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

type GradeFields = {
  [I in QualityItem as I['key']]: DatasetField<
    'grade',
    z.ZodType<I['allowedGrades'][number], string>,
    (typeof ScoresSchema.shape)[I['key']]
  >;
};
const GRADE_FIELDS = Object.fromEntries(
  QUALITY_ITEMS.map((item) => [item.key, field('grade', gradeOf(item), ScoresSchema.shape[item.key])]),
) as GradeFields;

export const DATASET_FIELDS = {
  analyte_id: requiredId(DATASET_MESSAGES.analyte),
  reference_id: requiredId(DATASET_MESSAGES.reference),
  unique_identifier: field(
    'text',
    z
      .string(DATASET_MESSAGES.uniqueIdentifier)
      .trim()
      .min(1, DATASET_MESSAGES.uniqueIdentifier)
      .max(200, 'Must be at most 200 characters.'),
    z.string(),
  ),
  matrix_id: requiredId(DATASET_MESSAGES.matrix),
  ...GRADE_FIELDS,
  scoring_comment: optionalText(4000),
  // population
  age_min: nonNegative(),
  age_max: nonNegative(),
  age_mean: nonNegative(),
  age_sd: nonNegative(),
  state_of_well_being_id: optionalId('State of well-being'),
  disease_state_ids: field(
    'ids',
    z
      .array(
        z.number('Disease states must be chosen from the list.').int().positive().max(INT_MAX),
        'Disease states must be a list.',
      )
      .max(50, 'At most 50 disease states.')
      .default([])
      .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
    z.array(z.number().int()),
  ),
  ethnicity_id: optionalId('Ethnicity'),
  sex_for_meta_analysis: optionalChoice(SEXES_FOR_META_ANALYSIS, z.enum(SEXES_FOR_META_ANALYSIS).nullable()),
  number_of_subjects: nonNegativeInt(),
  number_of_males: nonNegativeInt(),
  number_of_females: nonNegativeInt(),
  number_of_subjects_included_in_bv_estimation: nonNegativeInt(),
  // study design and sampling
  study_duration: nonNegative(),
  study_duration_units: optionalChoice(INTERVAL_UNITS, units),
  samples_per: nonNegative(),
  interval_units: optionalChoice(INTERVAL_UNITS, units),
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
  evidence_class: evidenceClass(),
};

type DatasetFields = typeof DATASET_FIELDS;
export type DatasetFieldName = keyof DatasetFields;
/** The names of the fields of one kind. */
export type DatasetFieldOfKind<K extends DatasetFieldKind> = {
  [N in DatasetFieldName]: DatasetFields[N]['kind'] extends K ? N : never;
}[DatasetFieldName];

/** The names of the fields of the given kinds, in payload order. */
export function datasetFieldsOfKind<K extends DatasetFieldKind>(...kinds: K[]): DatasetFieldOfKind<K>[] {
  return Object.entries(DATASET_FIELDS)
    .filter(([, f]) => (kinds as DatasetFieldKind[]).includes(f.kind))
    .map(([name]) => name as DatasetFieldOfKind<K>);
}

/** One part of every field (`input` or `value`), as the shape of a zod object. */
export function datasetShape<P extends 'input' | 'value'>(
  part: P,
): { [N in DatasetFieldName]: DatasetFields[N][P] } {
  return Object.fromEntries(Object.entries(DATASET_FIELDS).map(([name, f]) => [name, f[part]])) as {
    [N in DatasetFieldName]: DatasetFields[N][P];
  };
}

/**
 * The name of every field as people read it (the spec's names): the form's labels, the bulk-entry
 * template's column headers and the export columns of the same fields all come from here.
 */
export const DATASET_FIELD_LABELS: Record<DatasetFieldName, string> = {
  analyte_id: 'Measurand',
  reference_id: 'Reference',
  unique_identifier: 'Unique Identifier',
  matrix_id: 'Matrix',
  ...(Object.fromEntries(QUALITY_ITEMS.map((item) => [item.key, `QI${item.number} ${item.label}`])) as Record<
    QualityItem['key'],
    string
  >),
  scoring_comment: 'Scoring Comment',
  age_min: 'Age Min',
  age_max: 'Age Max',
  age_mean: 'Age Mean',
  age_sd: 'Age SD',
  state_of_well_being_id: 'State of Well Being',
  disease_state_ids: 'Disease States',
  ethnicity_id: 'Ethnicity',
  sex_for_meta_analysis: 'Sex for Meta-Analysis',
  number_of_subjects: 'Number of Subjects',
  number_of_males: 'Number of Males',
  number_of_females: 'Number of Females',
  number_of_subjects_included_in_bv_estimation: 'Subjects in BV Estimation',
  study_duration: 'Study Duration',
  study_duration_units: 'Study Duration Units',
  samples_per: 'Samples Per',
  interval_units: 'Interval Units',
  sampling_times_start_time: 'Sampling Start Time',
  sampling_times_end_time: 'Sampling End Time',
  average_number_of_samples_used_for_bv_estimation: 'Average Samples per Subject',
  average_number_of_replicates: 'Average Replicates',
  preanalytical_issues: 'Pre-analytical Issues',
  estimates_of_cvi: 'Estimate of CVI (%)',
  reported_cvi_lower_confidence_interval: 'CVI Lower CI',
  reported_cvi_upper_confidence_interval: 'CVI Upper CI',
  estimates_of_cvg: 'Estimate of CVG (%)',
  reported_cvg_lower_confidence_interval: 'CVG Lower CI',
  reported_cvg_upper_confidence_interval: 'CVG Upper CI',
  analytical_cv: 'Analytical CV (%)',
  concentration_mean: 'Concentration Mean',
  concentration_min: 'Concentration Min',
  concentration_max: 'Concentration Max',
  concentration_sd: 'Concentration SD',
  concentration_standard_unit_mean: 'Standard Unit Mean',
  concentration_standard_unit_min: 'Standard Unit Min',
  concentration_standard_unit_max: 'Standard Unit Max',
  concentration_standard_unit_sd: 'Standard Unit SD',
  unit_id: 'Unit',
  second_unit_id: 'Second Unit',
  standard_unit_for_reporting_of_analyte: 'Standard Unit for Reporting',
  second_standard_unit: 'Second Standard Unit',
  overall_principle_method_id: 'Overall Analytical Principle Method',
  snomed_ct: 'Snomed CT',
  npu: 'NPU',
  loinc: 'LOINC',
  comment: 'Comment',
  healthy: 'Healthy Population',
  adult: 'Adult Population',
  weekly_samplings: 'Weekly Samplings',
  review: 'Reviewed',
  published: 'Published',
  include_in_meta_analysis: 'Include in Meta-Analysis',
  evidence_class: 'Evidence Class',
};

/** The label of a field, for a caller holding a plain string (a form path, a column key). */
export const datasetFieldLabel = (name: string): string =>
  (DATASET_FIELD_LABELS as Record<string, string>)[name] ?? name;
