import type { MetaInputRow as ContractRow, ValidationRow } from '@bvdb/contract';
import type { MetaInputRow } from '@bvdb/domain';
import { metaEligibility, type VarType } from '../metas/meta-eligibility.js';
import type { ValidationSpecRow } from './meta-tools.repository.js';

const flag = (b: boolean): 0 | 1 => (b ? 1 : 0);

export function presentInputRow(row: MetaInputRow): ContractRow {
  return {
    ID: String(row.id),
    Include: row.include,
    Score: row.score,
    CV: row.cv,
    CI_lower: row.ciLower,
    CI_upper: row.ciUpper,
  };
}

/** [specification, [result, reason] for CVI, [result, reason] for CVG] (spec section 3). */
export function presentValidationRow(r: ValidationSpecRow): ValidationRow {
  const { spec } = r;
  const checks = (type: VarType) => metaEligibility(spec, type);
  const cvi = checks(':cvi');
  const cvg = checks(':cvg');
  const estimate = (e: typeof cvi) => ({
    cv: e.row.cv,
    ci_lower: e.row.ciLower,
    ci_upper: e.row.ciUpper,
    ci_source: e.ciSource,
    input_row: presentInputRow(e.row),
  });
  const result = (e: typeof cvi): [0 | 1, string] =>
    e.usable
      ? [1, `Included in Meta-Analysis (${e.ciSource === 'reported' ? 'reported' : 'calculated'} CI)`]
      : [0, e.reasons.join('; ')];
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
      cvi: estimate(cvi),
      cvg: estimate(cvg),
    },
    result(cvi),
    result(cvg),
  ];
}
