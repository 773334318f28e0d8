import type { LimitsKind } from './meta-limits.js';

/**
 * Evidence classes (issue 47.4, decision 099): what kind of evidence a dataset is, and so what kind
 * an estimate made of datasets is. A dataset is a direct study analysed by ANOVA with a confidence
 * interval (every dataset entered before the class existed), a direct study with a Bayesian credible
 * interval, or routine data (indirect). An estimate is the class its studies share, `mixed` when they
 * differ, and `range` when its limits are a range for too few studies (the engine's limits' kind).
 */
export const EVIDENCE_CLASSES = ['direct-anova', 'direct-bayesian', 'indirect'] as const;
export type EvidenceClass = (typeof EVIDENCE_CLASSES)[number];

/** The class every dataset has unless entered otherwise; the only one the global estimate takes. */
export const DEFAULT_EVIDENCE_CLASS: EvidenceClass = 'direct-anova';

export const EVIDENCE_CLASS_LABELS: Record<EvidenceClass, string> = {
  'direct-anova': 'direct study (ANOVA, confidence interval)',
  'direct-bayesian': 'direct study (Bayesian, credible interval)',
  // The same words as a laboratory's saved local estimate (decision 095).
  indirect: 'routine data (indirect)',
};

export const ESTIMATE_EVIDENCE = [...EVIDENCE_CLASSES, 'mixed', 'range'] as const;
export type EstimateEvidence = (typeof ESTIMATE_EVIDENCE)[number];

export const ESTIMATE_EVIDENCE_LABELS: Record<EstimateEvidence, string> = {
  ...EVIDENCE_CLASS_LABELS,
  mixed: 'studies of more than one evidence class',
  range: 'a range (too few studies for a confidence interval)',
};

/**
 * What kind of evidence an estimate is: `range` when the engine's limits are a range (too few
 * studies), else the class its studies share (`mixed` when they differ; the default class when
 * none is known).
 */
export function estimateEvidenceOf(
  limits: LimitsKind | null,
  classes: readonly EvidenceClass[],
): { class: EstimateEvidence; label: string } {
  const distinct = [...new Set(classes)];
  const kind: EstimateEvidence =
    limits === 'range' ? 'range' : distinct.length > 1 ? 'mixed' : (distinct[0] ?? DEFAULT_EVIDENCE_CLASS);
  return { class: kind, label: ESTIMATE_EVIDENCE_LABELS[kind] };
}

export const isEvidenceClass = (v: unknown): v is EvidenceClass =>
  typeof v === 'string' && (EVIDENCE_CLASSES as readonly string[]).includes(v);
