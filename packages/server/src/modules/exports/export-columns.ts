import type { Dataset, MetaRecord } from '@bvdb/contract';

/** The public fields of a dataset, in the order of the spreadsheet columns. */
export const DATASET_COLUMNS: {
  header: string;
  key: string;
  value: (d: Dataset) => string | number | null;
  width?: number;
}[] = [
  { header: 'Dataset ID', key: 'id', value: (d) => d.id, width: 10 },
  { header: 'Unique Identifier', key: 'unique_identifier', value: (d) => d.unique_identifier, width: 18 },
  { header: 'Measurand', key: 'analyte', value: (d) => d.analyte_display_name, width: 30 },
  { header: 'Matrix', key: 'matrix', value: (d) => d.matrix?.matrix_expansion ?? null, width: 14 },
  { header: 'CVI (%)', key: 'cvi', value: (d) => d.estimates_of_cvi },
  {
    header: 'CVI CI lower (reported)',
    key: 'cvi_lo_r',
    value: (d) => d.reported_cvi_lower_confidence_interval,
  },
  {
    header: 'CVI CI upper (reported)',
    key: 'cvi_hi_r',
    value: (d) => d.reported_cvi_upper_confidence_interval,
  },
  { header: 'CVI CI lower (calculated)', key: 'cvi_lo_c', value: (d) => d.calculated_within_bv_lower_ci },
  { header: 'CVI CI upper (calculated)', key: 'cvi_hi_c', value: (d) => d.calculated_within_bv_upper_ci },
  { header: 'CVG (%)', key: 'cvg', value: (d) => d.estimates_of_cvg },
  {
    header: 'CVG CI lower (reported)',
    key: 'cvg_lo_r',
    value: (d) => d.reported_cvg_lower_confidence_interval,
  },
  {
    header: 'CVG CI upper (reported)',
    key: 'cvg_hi_r',
    value: (d) => d.reported_cvg_upper_confidence_interval,
  },
  { header: 'CVG CI lower (calculated)', key: 'cvg_lo_c', value: (d) => d.calculated_between_bv_lower_ci },
  { header: 'CVG CI upper (calculated)', key: 'cvg_hi_c', value: (d) => d.calculated_between_bv_upper_ci },
  { header: 'Analytical CV (%)', key: 'cva', value: (d) => d.analytical_cv },
  { header: 'BIVAC grade', key: 'grade', value: (d) => d.total_score },
  { header: 'BIVAC items (QI1–QI14)', key: 'items', value: (d) => d.score_display, width: 30 },
  {
    header: 'Included in meta-analysis',
    key: 'included',
    value: (d) => (d.include_in_meta_analysis ? 'Yes' : 'No'),
  },
  { header: 'State of well-being', key: 'state', value: (d) => d.state_of_well_being },
  {
    header: 'Diseases',
    key: 'diseases',
    value: (d) => d.disease_states.map((x) => x.item_type).join('; ') || null,
  },
  { header: 'Sex', key: 'sex', value: (d) => d.sex_for_meta_analysis },
  { header: 'Age mean', key: 'age_mean', value: (d) => d.age_mean },
  { header: 'Age min', key: 'age_min', value: (d) => d.age_min },
  { header: 'Age max', key: 'age_max', value: (d) => d.age_max },
  { header: 'Subjects', key: 'subjects', value: (d) => d.number_of_subjects },
  {
    header: 'Subjects in BV estimation',
    key: 'subjects_bv',
    value: (d) => d.number_of_subjects_included_in_bv_estimation,
  },
  {
    header: 'Samples per subject',
    key: 'samples',
    value: (d) => d.average_number_of_samples_used_for_bv_estimation,
  },
  { header: 'Replicates', key: 'replicates', value: (d) => d.average_number_of_replicates },
  { header: 'Sampling interval', key: 'interval', value: (d) => d.sampling_interval },
  { header: 'Study duration', key: 'duration', value: (d) => d.study_duration },
  { header: 'Study duration units', key: 'duration_units', value: (d) => d.study_duration_units },
  { header: 'Unit', key: 'unit', value: (d) => d.unit },
  { header: 'Reference ID', key: 'reference_id', value: (d) => d.reference_id },
  { header: 'Reference title', key: 'title', value: (d) => d.reference_title, width: 50 },
  { header: 'Authors', key: 'authors', value: (d) => d.reference_author, width: 30 },
  { header: 'Journal', key: 'journal', value: (d) => d.reference_journal },
  { header: 'Year', key: 'year', value: (d) => d.reference_year_of_publication },
  { header: 'Volume', key: 'volume', value: (d) => d.reference_volume },
  { header: 'Pages', key: 'pages', value: (d) => d.reference_pages },
  { header: 'DOI', key: 'doi', value: (d) => d.reference_doi },
  { header: 'SNOMED CT', key: 'snomed', value: (d) => d.snomed_ct },
  { header: 'NPU', key: 'npu', value: (d) => d.npu },
  { header: 'LOINC', key: 'loinc', value: (d) => d.loinc },
  { header: 'Comment', key: 'comment', value: (d) => d.comment, width: 40 },
  { header: 'Demo record', key: 'demo', value: (d) => (d.is_demo ? 'Yes' : 'No') },
  { header: 'Updated', key: 'updated', value: (d) => d.updated_at },
];

export const META_COLUMNS: {
  header: string;
  key: string;
  value: (m: MetaRecord & { analyte: string }) => string | number | null;
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
  { header: 'Computed', key: 'computed', value: (m) => m.computed_at },
];

/** A cell a spreadsheet program would run as a formula (=, +, -, @, tab, CR) is made inert text. */
export function neutralise(value: string | number | null): string | number | null {
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
