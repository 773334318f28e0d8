import type { OverallGrade } from './bivac.js';

/**
 * Why a dataset's estimate (its CVI or its CVG) stays out of a meta-analysis, in the order the
 * rules are checked: the one list the recomputation, the engine, the curators' validation table and
 * the public pages all speak.
 */
export const EXCLUSION_REASONS = [
  'not included by the curator',
  'not a healthy population',
  'not a direct ANOVA study',
  'no BIVAC grade',
  'grade D',
  'no estimate',
  'no confidence interval',
  'zero-width or inverted confidence interval',
] as const;

export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];

/** What the rule reads of one dataset for one estimate (CVI or CVG). */
export interface MetaCandidate {
  /** The curators' "include in meta-analysis" flag. */
  includedByCurator: boolean;
  healthy: boolean;
  /**
   * Whether the dataset is a direct study analysed by ANOVA (evidence class `direct-anova`, decision
   * 099); absent: it is (every dataset before the class existed).
   */
  directAnova?: boolean;
  /** The overall BIVAC grade (`overallGrade`), null when every item is NA. */
  grade: OverallGrade | null;
  cv: number | null;
  /** The reported CI when given, else the calculated one. */
  ciLower: number | null;
  ciUpper: number | null;
}

export type Eligibility = { eligible: true } | { eligible: false; reason: ExclusionReason };

const present = (v: number | null): v is number => v !== null && Number.isFinite(v);

/**
 * Every rule the estimate fails, in the order of EXCLUSION_REASONS (empty when it enters): the
 * curators' include flag, a healthy population (what the flag means in practice, domain.md), a
 * direct study analysed by ANOVA (the estimates the global meta-analysis always pooled, decision 099), an
 * overall BIVAC grade other than D (Aarsand et al., Clin Chem 2018;64:501-14), an estimate, and a
 * CI (reported, or calculated after Røraas et al., Clin Chem 2012;58:1306-13) wider than zero,
 * since a study's weight is 1 / CI width.
 */
export function exclusionReasonsOf(candidate: MetaCandidate): ExclusionReason[] {
  const { ciLower, ciUpper, grade } = candidate;
  const hasCi = present(ciLower) && present(ciUpper);
  const fails: Record<ExclusionReason, boolean> = {
    'not included by the curator': !candidate.includedByCurator,
    'not a healthy population': !candidate.healthy,
    'not a direct ANOVA study': candidate.directAnova === false,
    'no BIVAC grade': grade === null,
    'grade D': grade === 'D',
    'no estimate': !present(candidate.cv),
    'no confidence interval': !hasCi,
    'zero-width or inverted confidence interval': hasCi && !(ciUpper > ciLower),
  };
  return EXCLUSION_REASONS.filter((reason) => fails[reason]);
}

/** Whether the estimate enters a meta-analysis and, if not, the first reason (exclusionReasonsOf). */
export function eligibilityOf(candidate: MetaCandidate): Eligibility {
  const [reason] = exclusionReasonsOf(candidate);
  return reason === undefined ? { eligible: true } : { eligible: false, reason };
}

/**
 * The CI an estimate brings to a meta-analysis: the paper's reported CI when both limits are given,
 * else the calculated one (Røraas et al., Clin Chem 2012;58:1306-13), else none.
 */
export function metaCiOf(
  reported: { lower: number | null; upper: number | null },
  calculated: { lower: number | null; upper: number | null },
): { ciLower: number | null; ciUpper: number | null; ciSource: 'reported' | 'calculated' | null } {
  if (reported.lower !== null && reported.upper !== null)
    return { ciLower: reported.lower, ciUpper: reported.upper, ciSource: 'reported' };
  if (calculated.lower !== null && calculated.upper !== null)
    return { ciLower: calculated.lower, ciUpper: calculated.upper, ciSource: 'calculated' };
  return { ciLower: null, ciUpper: null, ciSource: null };
}
