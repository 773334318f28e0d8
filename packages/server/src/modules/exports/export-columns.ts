import { DATASET_FIELD_LABELS, type Dataset, type DatasetFieldName, type MetaRecord } from '@bvdb/contract';
import { formatCitation, roundHalfUp } from '@bvdb/domain';

type Cell = string | number | null;

export interface DatasetColumn {
  header: string;
  key: string;
  value: (d: Dataset) => Cell;
  width?: number;
}

/** The public fields a cell can show as they are. */
type CellField = { [K in keyof Dataset]: Dataset[K] extends Cell ? K : never }[keyof Dataset];

/** A column showing one public field unchanged. */
const field = (header: string, key: CellField, width?: number): DatasetColumn => ({
  header,
  key,
  value: (d) => d[key],
  width,
});

/** A column of an editable field: its header is the form's label (the contract's one list). */
const labelled = (key: CellField & DatasetFieldName, width?: number): DatasetColumn =>
  field(DATASET_FIELD_LABELS[key], key, width);

const yesNo = (b: boolean | 0 | 1) => (b ? 'Yes' : 'No');

/** The public fields of a dataset, in the order of the spreadsheet columns. */
export const DATASET_COLUMNS: DatasetColumn[] = [
  field('Dataset ID', 'id', 10),
  labelled('unique_identifier', 18),
  field(DATASET_FIELD_LABELS.analyte_id, 'analyte_display_name', 30),
  {
    header: DATASET_FIELD_LABELS.matrix_id,
    key: 'matrix',
    value: (d) => d.matrix?.matrix_expansion ?? null,
    width: 14,
  },
  labelled('estimates_of_cvi'),
  labelled('reported_cvi_lower_confidence_interval'),
  labelled('reported_cvi_upper_confidence_interval'),
  field('CVI CI lower (calculated)', 'calculated_within_bv_lower_ci'),
  field('CVI CI upper (calculated)', 'calculated_within_bv_upper_ci'),
  labelled('estimates_of_cvg'),
  labelled('reported_cvg_lower_confidence_interval'),
  labelled('reported_cvg_upper_confidence_interval'),
  field('CVG CI lower (calculated)', 'calculated_between_bv_lower_ci'),
  field('CVG CI upper (calculated)', 'calculated_between_bv_upper_ci'),
  labelled('analytical_cv'),
  field('BIVAC grade', 'total_score'),
  field('BIVAC items (QI1–QI14)', 'score_display', 30),
  {
    header: DATASET_FIELD_LABELS.include_in_meta_analysis,
    key: 'included',
    value: (d) => yesNo(d.include_in_meta_analysis),
  },
  field(DATASET_FIELD_LABELS.state_of_well_being_id, 'state_of_well_being'),
  {
    header: DATASET_FIELD_LABELS.disease_state_ids,
    key: 'diseases',
    value: (d) => d.disease_states.map((x) => x.item_type).join('; ') || null,
  },
  labelled('sex_for_meta_analysis'),
  labelled('age_mean'),
  labelled('age_min'),
  labelled('age_max'),
  labelled('number_of_subjects'),
  labelled('number_of_subjects_included_in_bv_estimation'),
  labelled('average_number_of_samples_used_for_bv_estimation'),
  labelled('average_number_of_replicates'),
  field('Sampling interval', 'sampling_interval'),
  labelled('study_duration'),
  labelled('study_duration_units'),
  field(DATASET_FIELD_LABELS.unit_id, 'unit'),
  field('Reference ID', 'reference_id'),
  {
    // Running text: the one Vancouver formatter, without the placeholders the fields below keep.
    header: 'Citation',
    key: 'citation',
    value: (d) =>
      formatCitation({
        author: d.reference_author,
        title: d.reference_title,
        journal: d.reference_journal,
        year: d.reference_year_of_publication,
        volume: d.reference_volume,
        pages: d.reference_pages,
      }) || null,
    width: 60,
  },
  field('Reference title', 'reference_title', 50),
  field('Authors', 'reference_author', 30),
  field('Journal', 'reference_journal'),
  field('Year', 'reference_year_of_publication'),
  field('Volume', 'reference_volume'),
  field('Pages', 'reference_pages'),
  field('DOI', 'reference_doi'),
  labelled('snomed_ct'),
  labelled('npu'),
  labelled('loinc'),
  labelled('comment', 40),
  { header: 'Demo record', key: 'demo', value: (d) => yesNo(d.is_demo) },
  field('Updated', 'updated_at'),
];

export const META_COLUMNS: {
  header: string;
  key: string;
  value: (m: MetaRecord & { analyte: string }) => Cell;
}[] = [
  { header: 'Measurand', key: 'analyte', value: (m) => m.analyte },
  { header: 'Matrix', key: 'matrix', value: (m) => m.matrix },
  {
    header: 'Type',
    key: 'type',
    value: (m) => (m.var_type === ':cvi' ? 'CVI (within-subject)' : 'CVG (between-subject)'),
  },
  { header: 'Weighted median CV (%)', key: 'median', value: (m) => m.median },
  { header: 'Lower limit', key: 'lower', value: (m) => m.lower },
  { header: 'Upper limit', key: 'upper', value: (m) => m.upper },
  {
    header: 'Limits method',
    key: 'method',
    value: (m) =>
      m.method === 'bootstrap'
        ? '95% percentile bootstrap (999 resamples)'
        : m.method === 'range'
          ? 'Range of study estimates (min–max)'
          : m.method === 'single'
            ? 'CI of the single study'
            : 'none',
  },
  { header: 'Studies used (N)', key: 'n', value: (m) => m.number_used },
  { header: 'References used', key: 'refs', value: (m) => m.references_array },
  { header: 'Updated (value last changed)', key: 'updated', value: (m) => m.updated_at },
  { header: 'Computed (last recomputation)', key: 'computed', value: (m) => m.computed_at },
];

/** Decimals of a number in an exported file: data, not a screen, but never binary noise (issue 16.7). */
export const EXPORT_DECIMALS = 4;

/**
 * A cell as written to a file: a number rounded half up to 4 decimals (a calculated CI such as
 * 4.812345678901 reads 4.8123), any text made inert (neutralise).
 */
export function exportCell(value: Cell): Cell {
  return typeof value === 'number' ? roundHalfUp(value, EXPORT_DECIMALS) : neutralise(value);
}

/** A cell a spreadsheet program would run as a formula (=, +, -, @, tab, CR) is made inert text. */
export function neutralise(value: Cell): Cell {
  if (typeof value !== 'string') return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export const DATA_USE_NOTICE =
  'The content of this database is copyright of the European Federation of Clinical Chemistry and ' +
  'Laboratory Medicine (EFLM). It may not be distributed or commercially exploited without written ' +
  'permission.';

export const CITATION =
  'Aarsand AK, Fernandez-Calle P, Webster C, Coskun A, Gonzales-Lao E, Diaz-Garzon J, Jonker N, ' +
  'Simon M, Braga F, Perich C, Boned B, Marques-Garcia F, Carobene A, Aslan B, Sezer E, Bartlett WA, ' +
  'Sandberg S. The EFLM Biological Variation Database. https://biologicalvariation.eu/ [time of access].';
