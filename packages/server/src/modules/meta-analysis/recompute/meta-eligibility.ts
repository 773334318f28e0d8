import { overallGrade, type MetaInputRow, type OverallGrade } from '@bvdb/domain';
import type { bvSpecifications } from '../../db/schema.js';
import { gradesOf } from '../datasets/datasets.presenter.js';

export type Spec = typeof bvSpecifications.$inferSelect;
export type VarType = ':cvi' | ':cvg';

/** The CV and CI a dataset contributes: the paper's CI when given, else the calculated one. */
export function estimateOf(spec: Spec, type: VarType) {
  const [cv, repLower, repUpper, calcLower, calcUpper] =
    type === ':cvi'
      ? [
          spec.estimatesOfCvi,
          spec.reportedCviLower,
          spec.reportedCviUpper,
          spec.calculatedWithinLower,
          spec.calculatedWithinUpper,
        ]
      : [
          spec.estimatesOfCvg,
          spec.reportedCvgLower,
          spec.reportedCvgUpper,
          spec.calculatedBetweenLower,
          spec.calculatedBetweenUpper,
        ];
  const reported = repLower !== null && repUpper !== null;
  const calculated = calcLower !== null && calcUpper !== null;
  return {
    cv,
    ciLower: reported ? repLower : calcLower,
    ciUpper: reported ? repUpper : calcUpper,
    ciSource: reported ? ('reported' as const) : calculated ? ('calculated' as const) : null,
  };
}

export interface MetaEligibility {
  /** True when the estimate enters the meta-analysis. */
  usable: boolean;
  /** Why not, in the curators' words (empty when usable). */
  reasons: string[];
  grade: OverallGrade | null;
  ciSource: 'reported' | 'calculated' | null;
  /** The row the statistics service receives; `include` already carries every rule above. */
  row: MetaInputRow;
}

const present = (v: number | null): v is number => v !== null && Number.isFinite(v);

/**
 * The one rule deciding whether a dataset's CVI or CVG enters a meta-analysis, used by the
 * recomputation (meta-recompute.service) and by the curators' validation (validate_for_meta):
 * the curators' include flag, a healthy population (what the flag means in practice, domain.md),
 * an overall BIVAC grade other than D (Aarsand et al. 2018), an estimate, and a CI (reported, or
 * calculated after Røraas et al. 2012) that is wider than zero, since the weight is 1 / CI width.
 */
export function metaEligibility(spec: Spec, type: VarType): MetaEligibility {
  const e = estimateOf(spec, type);
  const grade = overallGrade(gradesOf(spec));
  const reasons: string[] = [];
  if (!spec.includeInMetaAnalysis) reasons.push('Not included in meta-analysis');
  if (!spec.healthy) reasons.push('Not a healthy population');
  if (grade === null) reasons.push('No BIVAC grade');
  else if (grade === 'D') reasons.push('Overall grade D');
  if (!present(e.cv)) reasons.push(`No estimate of ${type === ':cvi' ? 'CVI' : 'CVG'}`);
  if (!present(e.ciLower) || !present(e.ciUpper)) reasons.push('No CI (neither reported nor calculated)');
  else if (!(e.ciUpper > e.ciLower)) reasons.push('Zero-width or inverted CI');
  const usable = reasons.length === 0;
  return {
    usable,
    reasons,
    grade,
    ciSource: e.ciSource,
    row: {
      id: String(spec.referenceId),
      include: usable,
      score: grade ?? 'D',
      cv: e.cv,
      ciLower: e.ciLower,
      ciUpper: e.ciUpper,
    },
  };
}
