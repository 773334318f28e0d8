import { DatasetInputSchema, type DatasetValues } from '@bvdb/contract';
import { NON_HEALTHY_STATE_ID, QUALITY_ITEMS, type QualityItemKey } from '@bvdb/domain';
import { z } from 'zod';

/** Numeric inputs of the payload: '' is "not filled in" (sent as null). */
export const NUMERIC_KEYS = [
  'age_min',
  'age_max',
  'age_mean',
  'age_sd',
  'number_of_subjects',
  'number_of_males',
  'number_of_females',
  'number_of_subjects_included_in_bv_estimation',
  'study_duration',
  'samples_per',
  'average_number_of_samples_used_for_bv_estimation',
  'average_number_of_replicates',
  'estimates_of_cvi',
  'reported_cvi_lower_confidence_interval',
  'reported_cvi_upper_confidence_interval',
  'estimates_of_cvg',
  'reported_cvg_lower_confidence_interval',
  'reported_cvg_upper_confidence_interval',
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

/** Selects of lookup ids: '' is "none chosen". */
export const ID_KEYS = [
  'analyte_id',
  'reference_id',
  'matrix_id',
  'state_of_well_being_id',
  'ethnicity_id',
  'unit_id',
  'second_unit_id',
  'overall_principle_method_id',
] as const;

/** Free text and fixed-choice text. */
export const TEXT_KEYS = [
  'unique_identifier',
  'scoring_comment',
  'sex_for_meta_analysis',
  'study_duration_units',
  'interval_units',
  'sampling_times_start_time',
  'sampling_times_end_time',
  'preanalytical_issues',
  'standard_unit_for_reporting_of_analyte',
  'second_standard_unit',
  'snomed_ct',
  'npu',
  'loinc',
  'comment',
] as const;

export const FLAG_KEYS = [
  'healthy',
  'adult',
  'weekly_samplings',
  'review',
  'published',
  'include_in_meta_analysis',
] as const;

type NumericKey = (typeof NUMERIC_KEYS)[number];
type IdKey = (typeof ID_KEYS)[number];
type TextKey = (typeof TEXT_KEYS)[number];
type FlagKey = (typeof FLAG_KEYS)[number];

/** What the inputs hold: text, checkboxes, and the ticked disease ids. */
export type DatasetFormValues = Record<NumericKey | IdKey | TextKey | QualityItemKey, string> &
  Record<FlagKey, boolean> & { disease_state_ids: string[] };

const fill = <K extends string, V>(keys: readonly K[], value: V) =>
  Object.fromEntries(keys.map((k) => [k, value])) as Record<K, V>;

/** The defaults of spec section 4: all 14 scores A, Healthy, Caucasian, Week, Males, flags off. */
export const DEFAULT_DATASET_VALUES: DatasetFormValues = {
  ...fill(NUMERIC_KEYS, ''),
  ...fill(ID_KEYS, ''),
  ...fill(TEXT_KEYS, ''),
  ...fill(
    QUALITY_ITEMS.map((i) => i.key),
    'A',
  ),
  ...fill(FLAG_KEYS, false),
  disease_state_ids: [],
  state_of_well_being_id: '1',
  ethnicity_id: '6',
  study_duration_units: 'Week',
  interval_units: 'Week',
  sex_for_meta_analysis: 'Males',
};

const text = (v: string | number | null) => (v === null ? '' : String(v));

/** A stored dataset's values in the inputs (edit and copy). */
export function valuesOf(d: DatasetValues): DatasetFormValues {
  const out = { ...DEFAULT_DATASET_VALUES };
  for (const k of NUMERIC_KEYS) out[k] = text(d[k]);
  for (const k of ID_KEYS) out[k] = text(d[k]);
  for (const k of TEXT_KEYS) out[k] = text(d[k]);
  for (const item of QUALITY_ITEMS) out[item.key] = d[item.key];
  for (const k of FLAG_KEYS) out[k] = d[k] === 1;
  out.disease_state_ids = d.disease_state_ids.map(String);
  return out;
}

/** '' → null; anything else → a number (NaN for junk, which the contract turns into its message). */
const numberOrNull = (v: string) => (v.trim() === '' ? null : Number(v));

/** The inputs → the payload of the contract (disease states only count for a Non-healthy population). */
export function payloadOf(v: DatasetFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of NUMERIC_KEYS) out[k] = numberOrNull(v[k]);
  for (const k of ID_KEYS) out[k] = numberOrNull(v[k]);
  for (const k of TEXT_KEYS) out[k] = v[k];
  for (const item of QUALITY_ITEMS) out[item.key] = v[item.key];
  for (const k of FLAG_KEYS) out[k] = v[k] ? 1 : 0;
  out.disease_state_ids =
    Number(v.state_of_well_being_id) === NON_HEALTHY_STATE_ID ? v.disease_state_ids.map(Number) : [];
  return out;
}

/**
 * The form's schema: its text turned into the payload, then checked by the contract's own schema, so
 * the browser shows the server's messages before the server is asked.
 */
export const DatasetFormInputSchema = z
  .custom<DatasetFormValues>((v) => typeof v === 'object' && v !== null)
  .transform(payloadOf)
  .pipe(DatasetInputSchema);
