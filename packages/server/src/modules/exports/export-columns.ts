import type { Dataset, MetaRecord } from '@bvdb/contract';
import { describeMetaUse, formatCitation, metaUseOf, roundHalfUp } from '@bvdb/domain';

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

const yesNo = (b: boolean | 0 | 1) => (b ? 'Yes' : 'No');

/** The public fields of a dataset, in the order of the spreadsheet columns. */
export const DATASET_COLUMNS: DatasetColumn[] = [
  field('Dataset ID', 'id', 10),
  field('Unique Identifier', 'unique_identifier', 18),
  field('Measurand', 'analyte_display_name', 30),
  { header: 'Matrix', key: 'matrix', value: (d) => d.matrix?.matrix_expansion ?? null, width: 14 },
  field('CVI (%)', 'estimates_of_cvi'),
  field('CVI CI lower (reported)', 'reported_cvi_lower_confidence_interval'),
  field('CVI CI upper (reported)', 'reported_cvi_upper_confidence_interval'),
  field('CVI CI lower (calculated)', 'calculated_within_bv_lower_ci'),
  field('CVI CI upper (calculated)', 'calculated_within_bv_upper_ci'),
  field('CVG (%)', 'estimates_of_cvg'),
  field('CVG CI lower (reported)', 'reported_cvg_lower_confidence_interval'),
  field('CVG CI upper (reported)', 'reported_cvg_upper_confidence_interval'),
  field('CVG CI lower (calculated)', 'calculated_between_bv_lower_ci'),
  field('CVG CI upper (calculated)', 'calculated_between_bv_upper_ci'),
  field('Analytical CV (%)', 'analytical_cv'),
  field('BIVAC grade', 'total_score'),
  field('BIVAC items (QI1–QI14)', 'score_display', 30),
  { header: 'Included in meta-analysis', key: 'included', value: (d) => yesNo(d.include_in_meta_analysis) },
  field('State of well-being', 'state_of_well_being'),
  {
    header: 'Diseases',
    key: 'diseases',
    value: (d) => d.disease_states.map((x) => x.item_type).join('; ') || null,
  },
  field('Sex', 'sex_for_meta_analysis'),
  field('Age mean', 'age_mean'),
  field('Age min', 'age_min'),
  field('Age max', 'age_max'),
  field('Subjects', 'number_of_subjects'),
  field('Subjects in BV estimation', 'number_of_subjects_included_in_bv_estimation'),
  field('Samples per subject', 'average_number_of_samples_used_for_bv_estimation'),
  field('Replicates', 'average_number_of_replicates'),
  field('Sampling interval', 'sampling_interval'),
  field('Study duration', 'study_duration'),
  field('Study duration units', 'study_duration_units'),
  field('Unit', 'unit'),
  field('Reference ID', 'reference_id'),
  field('Reference title', 'reference_title', 50),
  field('Authors', 'reference_author', 30),
  field('Journal', 'reference_journal'),
  field('Year', 'reference_year_of_publication'),
  field('Volume', 'reference_volume'),
  field('Pages', 'reference_pages'),
  field('DOI', 'reference_doi'),
  field('SNOMED CT', 'snomed_ct'),
  field('NPU', 'npu'),
  field('LOINC', 'loinc'),
  field('Comment', 'comment', 40),
  { header: 'Demo record', key: 'demo', value: (d) => yesNo(d.is_demo) },
  field('Updated', 'updated_at'),
  {
    // Added after the published columns (scripts read them by name and by position): the reference
    // as running text from the one Vancouver formatter, without the placeholders the fields above keep.
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
  // Added last (scripts read columns by position too): what the lower/upper pair is (issue 27.7).
  { header: 'Limits are', key: 'limits', value: (m) => m.limits ?? 'none' },
];

/**
 * Columns the workbooks add after DATASET_COLUMNS, where the meta-analysis results are at hand:
 * whether a dataset was actually used, and why not (issue 27.8; the rule of the measurand page,
 * decision 014). "Included in meta-analysis" above stays the curator's flag.
 */
export const DATASET_USE_COLUMNS: {
  header: string;
  key: string;
  value: (d: Dataset, metas: readonly MetaRecord[]) => Cell;
  width?: number;
}[] = [
  {
    header: 'Used in meta-analysis',
    key: 'used',
    value: (d, metas) =>
      yesNo(
        metaUseOf(
          d,
          metas.filter((m) => m.analyte_id === d.analyte_id),
        ).used,
      ),
  },
  {
    header: 'Meta-analysis use',
    key: 'use',
    value: (d, metas) =>
      describeMetaUse(
        metaUseOf(
          d,
          metas.filter((m) => m.analyte_id === d.analyte_id),
        ),
      ),
    width: 50,
  },
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

export { CITATION, DATA_USE_NOTICE } from '../../lib/export-notice.js';
