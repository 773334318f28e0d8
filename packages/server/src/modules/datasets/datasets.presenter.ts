import type { BvEstimate, Dataset, LegacyDatasetPageItem } from '@bvdb/contract';
import {
  formatCitation,
  formatSamplingInterval,
  overallGrade,
  QUALITY_ITEMS,
  type BivacGrades,
} from '@bvdb/domain';
import { gradesOf, storedValuesButGradesOf, storedValuesOf } from './dataset-columns.js';
import type { DatasetRow } from './datasets.repository.js';

// The meta-analysis rules read a row's grades through the presenter, as they always have.

/** The reference object of a dataset, with the defaults of spec section 3. */
function referenceOf(ref: DatasetRow['reference']) {
  return {
    id: ref.id,
    title: ref.title || 'Unknown Title',
    author: ref.author || 'Unknown Author',
    journal: ref.journal || 'Unknown Journal',
    volume: ref.volume ?? 0,
    pages: ref.pages || 'N/A',
    year_of_publication: ref.yearOfPublication,
    doi: ref.doi,
    pubmed_link: ref.pubmedLink,
  };
}

/**
 * What the joins and the grades add to the stored values. `withReference: false` leaves out the
 * reference object (the paged legacy item puts a citation in its place, at the end).
 */
function joinedFieldsOf(row: DatasetRow, grades: BivacGrades, withReference: boolean) {
  const { spec, analyte, matrix } = row;
  const reference = referenceOf(row.reference);
  return {
    id: spec.id,
    analyte: { id: analyte.id, display_name: analyte.displayName },
    analyte_display_name: analyte.displayName,
    ...(withReference ? { reference } : {}),
    reference_title: reference.title,
    reference_author: reference.author,
    reference_journal: reference.journal,
    reference_volume: reference.volume,
    reference_pages: reference.pages,
    reference_year_of_publication: reference.year_of_publication,
    reference_doi: reference.doi,
    reference_pubmed_link: reference.pubmed_link,
    matrix: matrix
      ? {
          id: matrix.id,
          matrix_expansion: matrix.matrixExpansion,
          matrix_explanation: matrix.matrixExplanation,
        }
      : null,
    calculated_within_bv_lower_ci: spec.calculatedWithinLower,
    calculated_within_bv_upper_ci: spec.calculatedWithinUpper,
    calculated_between_bv_lower_ci: spec.calculatedBetweenLower,
    calculated_between_bv_upper_ci: spec.calculatedBetweenUpper,
    state_of_well_being: row.state?.expansion ?? null,
    ethnicity: row.ethnicity ? { id: row.ethnicity.id, ethnicity_expansion: row.ethnicity.expansion } : null,
    disease_states: row.diseases,
    sampling_interval: formatSamplingInterval(spec.samplesPer, spec.intervalUnits),
    unit: row.unit,
    second_unit: row.secondUnit,
    overall_principle_method: row.method,
    total_score: overallGrade(grades) ?? 'NA',
    score_display: QUALITY_ITEMS.map((item) => grades[item.key]).join(' '),
    is_demo: spec.isDemo,
    version: spec.version,
    created_at: spec.createdAt.toISOString(),
    updated_at: spec.updatedAt.toISOString(),
  };
}

/**
 * Database row → the public dataset shape: the editable fields as stored, then what the joins and
 * the grades add, with the reference defaults of spec section 3.
 */
export function presentDataset(row: DatasetRow): Dataset {
  // Object.assign, not `{ ...stored, id, … }`: V8 (Node 20) defines every property written after a
  // spread of this ~70-key object through its slow runtime path, ~0.5 ms a row (37 s for the whole
  // catalogue at 100× the demo data). Same keys, same order.
  return Object.assign(storedValuesOf(row.spec), joinedFieldsOf(row, gradesOf(row.spec), true)) as Dataset;
}

/** A reference's citation, made once per reference object (rows kept in memory keep theirs). */
const citations = new WeakMap<DatasetRow['reference'], string>();
function citationOf(ref: DatasetRow['reference']): string {
  let text = citations.get(ref);
  if (text === undefined) {
    text = formatCitation({
      author: ref.author,
      title: ref.title,
      journal: ref.journal,
      year: ref.yearOfPublication,
      volume: ref.volume,
      pages: ref.pages,
    });
    citations.set(ref, text);
  }
  return text;
}

/**
 * An item of the paged legacy list (`?limit=&offset=`), as the live system sends it: `measurand` is
 * the measurand's name, `reference` a citation, and the 14 grades go under `grades`. Built directly
 * (not by copying a presented dataset key by key, which V8 makes slow for objects this wide).
 */
export function presentLegacyPageItem(row: DatasetRow): LegacyDatasetPageItem {
  const grades = gradesOf(row.spec);
  return Object.assign(storedValuesButGradesOf(row.spec), joinedFieldsOf(row, grades, false), {
    measurand: row.analyte.displayName,
    reference: citationOf(row.reference),
    grades,
  });
}

/** The estimates of a dataset under the live system's names (`bv_estimates` of one dataset). */
export const presentBvEstimates = (row: DatasetRow): BvEstimate[] => [
  {
    bv_specification_id: row.spec.id,
    within_subject_variation: row.spec.estimatesOfCvi,
    between_subject_variation: row.spec.estimatesOfCvg,
    analytical_variation: row.spec.analyticalCv,
  },
];
