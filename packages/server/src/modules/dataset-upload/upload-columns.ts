import { DATASET_FIELD_LABELS, DATASET_FIELDS, type DatasetFieldName } from '@bvdb/contract';
import { INTERVAL_UNITS, QUALITY_ITEMS, SEXES_FOR_META_ANALYSIS } from '@bvdb/domain';

/**
 * The columns of the bulk-entry template: one per field of the create form, in the contract's
 * order, headed by the form's label. The template (drop-downs, "Read me") and the reader of an
 * uploaded file both walk this list, so they cannot disagree.
 */

/** Lookup tables whose names a cell may hold (or their ids). */
export type ListName =
  'measurands' | 'matrices' | 'states' | 'ethnicities' | 'diseases' | 'units' | 'methods';

export const LIST_TITLES: Record<ListName, string> = {
  measurands: 'Measurands',
  matrices: 'Matrices',
  states: 'States of well-being',
  ethnicities: 'Ethnicities',
  diseases: 'Disease states',
  units: 'Units',
  methods: 'Analytical principle methods',
};

export interface UploadColumn {
  field: DatasetFieldName;
  label: string;
  /** What the "Read me" sheet says about the column. */
  help: string;
  /** A drop-down: names from a lookup table, or a fixed list. */
  list?: { lookup: ListName } | { values: readonly string[] };
  /** A time of day (HH:MM): kept as text in the template so a spreadsheet does not turn it into a date. */
  time?: boolean;
}

export const YES_NO = ['Yes', 'No'] as const;

const LOOKUP_OF: Partial<Record<DatasetFieldName, ListName>> = {
  analyte_id: 'measurands',
  matrix_id: 'matrices',
  state_of_well_being_id: 'states',
  ethnicity_id: 'ethnicities',
  disease_state_ids: 'diseases',
  unit_id: 'units',
  second_unit_id: 'units',
  overall_principle_method_id: 'methods',
};

const SPECIAL_HELP: Partial<Record<DatasetFieldName, string>> = {
  analyte_id: 'Required. The measurand as named in bvdb (drop-down), or its id.',
  reference_id:
    'Required. A reference already in bvdb, named by its DOI (10.xxxx/…, or https://doi.org/…), by its ' +
    'PubMed id written PMID:12345678 (or the pubmed.ncbi.nlm.nih.gov address), or by its bvdb reference ' +
    'id (a plain number). Add new references first (References → Import citation file).',
  unique_identifier:
    'Required. Tells this dataset apart from the other datasets of the same reference and measurand ' +
    '(e.g. "Males" or "Study A").',
  matrix_id: 'Required. The matrix (sample type), from the drop-down.',
  disease_state_ids:
    'Required when State of Well Being is Non-healthy: one or more disease states from the list, ' +
    'separated by semicolons (e.g. "Obesity; Diabetes mellitus type II"). Empty otherwise.',
  sampling_times_start_time: 'A time of day like 07:00 (24-hour). Give both start and end, or neither.',
  sampling_times_end_time: 'A time of day like 09:00 (24-hour). Give both start and end, or neither.',
};

const COUNT_FIELDS = new Set<DatasetFieldName>([
  'number_of_subjects',
  'number_of_males',
  'number_of_females',
  'number_of_subjects_included_in_bv_estimation',
]);

function columnOf(field: DatasetFieldName): UploadColumn {
  const label = DATASET_FIELD_LABELS[field];
  const kind = DATASET_FIELDS[field].kind;
  const lookup = LOOKUP_OF[field];
  const special = SPECIAL_HELP[field];
  const item = QUALITY_ITEMS.find((q) => q.key === field);
  if (item) {
    return {
      field,
      label,
      help: `Required. The BIVAC grade of quality item ${item.number} (${item.label}): ${item.allowedGrades.join(', ')}.`,
      list: { values: item.allowedGrades },
    };
  }
  if (field === 'sex_for_meta_analysis') {
    return {
      field,
      label,
      help: `One of ${SEXES_FOR_META_ANALYSIS.join(', ')}; empty for none.`,
      list: { values: SEXES_FOR_META_ANALYSIS },
    };
  }
  if (field === 'study_duration_units' || field === 'interval_units') {
    return {
      field,
      label,
      help: `One of ${INTERVAL_UNITS.join(', ')}; empty for none.`,
      list: { values: INTERVAL_UNITS },
    };
  }
  if (lookup) {
    return {
      field,
      label,
      help: special ?? `From the drop-down (the ${LIST_TITLES[lookup]} list), or its id; empty for none.`,
      list: { lookup },
    };
  }
  switch (kind) {
    case 'flag':
      return { field, label, help: 'Yes or No (empty is No).', list: { values: YES_NO } };
    case 'number':
      return {
        field,
        label,
        help: COUNT_FIELDS.has(field)
          ? 'A whole number not below zero; empty when not reported.'
          : 'A number not below zero; empty when not reported.',
      };
    case 'text':
      return {
        field,
        label,
        help: special ?? 'Free text; empty for none.',
        time: field === 'sampling_times_start_time' || field === 'sampling_times_end_time',
      };
    case 'id':
      return { field, label, help: special ?? 'An id.' };
    case 'choice':
    case 'grade':
    case 'ids':
      return { field, label, help: special ?? '' };
  }
}

export const UPLOAD_COLUMNS: readonly UploadColumn[] = (
  Object.keys(DATASET_FIELDS) as DatasetFieldName[]
).map(columnOf);

/** How a header is matched: case, spaces and punctuation do not matter. */
export const headerKey = (text: string) => text.toLowerCase().replace(/[^a-z0-9%]+/g, '');

const BY_FIELD = new Map<string, UploadColumn>(UPLOAD_COLUMNS.map((c) => [c.field, c]));
const BY_LABEL = new Map<string, UploadColumn>(UPLOAD_COLUMNS.map((c) => [headerKey(c.label), c]));

/**
 * A header → its column: the field's API name exactly as the API spells it (a script's CSV), else
 * the form's label with case, spaces and punctuation ignored. So `measurand` is the QI4 grade and
 * "Measurand" the measurand.
 */
export const columnOfHeader = (header: string): UploadColumn | undefined =>
  BY_FIELD.get(header.trim()) ?? BY_LABEL.get(headerKey(header));
