import type { MetaInputRow as ContractRow, ValidationRow, VarType } from '@bvdb/contract';
import { roundHalfUp, type ExclusionReason, type MetaInputRow } from '@bvdb/domain';
import type { specEligibility } from '../calculation/meta-calculation.service.js';
import type { ValidationSpecRow } from './meta-tools.repository.js';

type SpecEligibility = ReturnType<typeof specEligibility>;
type MetaEligibility = SpecEligibility['cvi'];

const flag = (b: boolean): 0 | 1 => (b ? 1 : 0);
/** Numbers shown as they are, to 4 decimals (calculated CIs are long floats); input rows stay whole. */
const r4 = (v: number | null) => (v === null ? null : roundHalfUp(v, 4));

const ESTIMATE_NAME: Record<VarType, string> = { ':cvi': 'CVI', ':cvg': 'CVG' };

/** The validation table's words for each reason: the curators' screens and scripts read these. */
const VALIDATION_TEXT: Record<ExclusionReason, (type: VarType) => string> = {
  'not included by the curator': () => 'Not included in meta-analysis',
  'not a healthy population': () => 'Not a healthy population',
  'not a direct ANOVA study': () => 'Not a direct ANOVA study (Bayesian or indirect evidence)',
  'no BIVAC grade': () => 'No BIVAC grade',
  'grade D': () => 'Overall grade D',
  'no estimate': (type) => `No estimate of ${ESTIMATE_NAME[type]}`,
  'no confidence interval': () => 'No CI (neither reported nor calculated)',
  'zero-width or inverted confidence interval': () => 'Zero-width or inverted CI',
};

function presentInputRow(row: MetaInputRow): ContractRow {
  return {
    ID: String(row.id),
    Include: row.include,
    Score: row.score,
    CV: row.cv,
    CI_lower: row.ciLower,
    CI_upper: row.ciUpper,
  };
}

function presentEstimate(e: MetaEligibility) {
  return {
    cv: r4(e.row.cv),
    ci_lower: r4(e.row.ciLower),
    ci_upper: r4(e.row.ciUpper),
    ci_source: e.ciSource,
    input_row: presentInputRow(e.row),
  };
}

/** [1, how it enters] or [0, every rule it fails]. */
function presentResult(e: MetaEligibility, type: VarType): [0 | 1, string] {
  return e.usable
    ? [1, `Included in Meta-Analysis (${e.ciSource === 'reported' ? 'reported' : 'calculated'} CI)`]
    : [0, e.reasons.map((reason) => VALIDATION_TEXT[reason](type)).join('; ')];
}

/** [specification, [result, reason] for CVI, [result, reason] for CVG] (spec section 3). */
export function presentValidationRow(r: ValidationSpecRow, eligibility: SpecEligibility): ValidationRow {
  const { spec } = r;
  const { cvi, cvg } = eligibility;
  return [
    {
      id: spec.id,
      unique_identifier: spec.uniqueIdentifier,
      reference: { id: spec.referenceId, title: r.referenceTitle || 'Unknown Title' },
      analyte: { id: spec.analyteId, display_name: r.analyteName },
      matrix: r.matrixName !== null ? { id: spec.matrixId, matrix_expansion: r.matrixName } : null,
      grade: cvi.grade ?? 'NA',
      include_in_meta_analysis: flag(spec.includeInMetaAnalysis),
      healthy: flag(spec.healthy),
      cvi: presentEstimate(cvi),
      cvg: presentEstimate(cvg),
    },
    presentResult(cvi, ':cvi'),
    presentResult(cvg, ':cvg'),
  ];
}

const CSV_HEADER = ['ID', 'Include', 'Score', 'CV', 'CI_lower', 'CI_upper'];
/** A number of the CSV: 4 decimals at most, so a calculated CI never shows binary noise (issue 16.7). */
const cell = (v: number | null) => (v === null ? 'NA' : String(roundHalfUp(v, 4)));

/**
 * The statistics service's CSV input as the Input Tables page shows it (IDs are reference ids, so
 * no cell needs quoting); the calculation itself receives the full values.
 */
export function presentInputCsv(rows: MetaInputRow[]): string {
  return [
    CSV_HEADER,
    ...rows.map((r) => [
      String(r.id),
      r.include ? 'TRUE' : 'FALSE',
      r.score,
      cell(r.cv),
      cell(r.ciLower),
      cell(r.ciUpper),
    ]),
  ]
    .map((cells) => cells.join(','))
    .join('\n');
}
