import {
  exclusionReasonsOf,
  overallGrade,
  type ExclusionReason,
  type MetaInputRow,
  type OverallGrade,
} from '@bvdb/domain';
import type { bvSpecifications } from '../../../db/schema.js';
import { gradesOf } from '../../../db/spec-grades.js';

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
  /** Every rule it fails (empty when usable). */
  reasons: ExclusionReason[];
  grade: OverallGrade | null;
  ciSource: 'reported' | 'calculated' | null;
  /** The row the statistics service receives; `include` already carries every rule. */
  row: MetaInputRow;
}

/**
 * The domain's eligibility rule (exclusionReasonsOf) applied to one stored dataset's CVI or CVG,
 * for the recomputation and the curators' validation table alike.
 */
export function metaEligibility(spec: Spec, type: VarType): MetaEligibility {
  const e = estimateOf(spec, type);
  // A dataset entered "in appraisal" has no final grades yet: it stays out until its round is final
  // (decision 008). One sent back to appraisal keeps its last final grades meanwhile.
  const grade = spec.gradesFinal ? overallGrade(gradesOf(spec)) : null;
  const reasons = exclusionReasonsOf({
    includedByCurator: spec.includeInMetaAnalysis,
    healthy: spec.healthy,
    directAnova: spec.evidenceClass === 'direct-anova',
    grade,
    cv: e.cv,
    ciLower: e.ciLower,
    ciUpper: e.ciUpper,
  });
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
