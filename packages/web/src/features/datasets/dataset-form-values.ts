import {
  DatasetInputSchema,
  datasetFieldsOfKind,
  type DatasetFieldOfKind,
  type DatasetValues,
} from '@bvdb/contract';
import { DEFAULT_EVIDENCE_CLASS, NON_HEALTHY_STATE_ID } from '@bvdb/domain';
import { z } from 'zod';

type NumericField = DatasetFieldOfKind<'number' | 'id'>;
type TextField = DatasetFieldOfKind<'text' | 'choice' | 'grade'>;
type FlagField = DatasetFieldOfKind<'flag'>;

/** Numeric inputs and lookup selects: '' is "not filled in" or "none chosen" (sent as null). */
const NUMERIC_FIELDS: NumericField[] = datasetFieldsOfKind('number', 'id');
/** Free text, fixed choices and grades: the string as typed or chosen. */
const TEXT_FIELDS: TextField[] = datasetFieldsOfKind('text', 'choice', 'grade');
const FLAG_FIELDS: FlagField[] = datasetFieldsOfKind('flag');

/** What the inputs hold: text, checkboxes, and the ticked disease ids. */
export type DatasetFormValues = Record<NumericField | TextField, string> &
  Record<FlagField, boolean> & { disease_state_ids: string[] };

const fill = <K extends string, V>(keys: readonly K[], value: V) =>
  Object.fromEntries(keys.map((k) => [k, value])) as Record<K, V>;

/** The defaults of spec section 4: all 14 scores A, Healthy, Caucasian, Week, Males, flags off. */
export const DEFAULT_DATASET_VALUES: DatasetFormValues = {
  ...fill(NUMERIC_FIELDS, ''),
  ...fill(TEXT_FIELDS, ''),
  ...fill(datasetFieldsOfKind('grade'), 'A'),
  ...fill(FLAG_FIELDS, false),
  disease_state_ids: [],
  state_of_well_being_id: '1',
  ethnicity_id: '6',
  study_duration_units: 'Week',
  interval_units: 'Week',
  sex_for_meta_analysis: 'Males',
  // Decision 099: a direct study analysed by ANOVA unless the curator records otherwise.
  evidence_class: DEFAULT_EVIDENCE_CLASS,
};

const text = (v: string | number | null) => (v === null ? '' : String(v));

/**
 * Values another page hands the create form (router state, e.g. the estimation report's draft):
 * only text for the inputs that hold text, under the payload's field names; anything else is
 * dropped. The form's own schema checks them when submitted, as if typed.
 */
export function draftValuesOf(state: unknown): Partial<DatasetFormValues> {
  const out: Partial<Record<NumericField | TextField, string> & Record<FlagField, boolean>> = {};
  if (!state || typeof state !== 'object') return out;
  for (const k of [...NUMERIC_FIELDS, ...TEXT_FIELDS]) {
    const v = (state as Record<string, unknown>)[k];
    if (typeof v === 'string' && v.length <= 4000) out[k] = v;
  }
  // Flags as the payload sends them: '1' or '0'.
  for (const k of FLAG_FIELDS) {
    const v = (state as Record<string, unknown>)[k];
    if (v === '1' || v === '0') out[k] = v === '1';
  }
  return out;
}

/** A stored dataset's values in the inputs (edit and copy). */
export function valuesOf(d: DatasetValues): DatasetFormValues {
  const out = { ...DEFAULT_DATASET_VALUES };
  for (const k of [...NUMERIC_FIELDS, ...TEXT_FIELDS]) out[k] = text(d[k]);
  for (const k of FLAG_FIELDS) out[k] = d[k] === 1;
  out.disease_state_ids = d.disease_state_ids.map(String);
  return out;
}

/** '' → null; anything else → a number (NaN for junk, which the contract turns into its message). */
const numberOrNull = (v: string) => (v.trim() === '' ? null : Number(v));

/** The inputs → the payload of the contract (disease states only count for a Non-healthy population). */
export function payloadOf(v: DatasetFormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of NUMERIC_FIELDS) out[k] = numberOrNull(v[k]);
  for (const k of TEXT_FIELDS) out[k] = v[k];
  for (const k of FLAG_FIELDS) out[k] = v[k] ? 1 : 0;
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

/**
 * A copy keeping its source's Unique Identifier for the same reference and measurand could not be
 * told apart from it (the server refuses it too): the message for the field, or null when it is its own.
 */
export function sameIdentifierAsSource(
  values: Pick<DatasetValues, 'unique_identifier' | 'reference_id' | 'analyte_id'>,
  source: Pick<DatasetValues, 'unique_identifier' | 'reference_id' | 'analyte_id'>,
): string | null {
  const same =
    values.reference_id === source.reference_id &&
    values.analyte_id === source.analyte_id &&
    values.unique_identifier.trim().toLowerCase() === source.unique_identifier.trim().toLowerCase();
  return same
    ? `A copy needs its own Unique Identifier: "${source.unique_identifier}" is the one of the dataset it was copied from (same reference and measurand).`
    : null;
}
