import type { OverallGrade } from './bivac.js';
import { exclusionReasonsOf, metaCiOf, type ExclusionReason } from './meta-eligibility.js';

/** The public fields of a dataset the rule reads (the contract's Dataset has them all). */
export interface MetaUseDataset {
  id: number;
  total_score: string;
  include_in_meta_analysis: number | boolean;
  healthy: number | boolean;
  /** The evidence class (decision 099); absent in answers before it existed: a direct ANOVA study. */
  evidence_class?: string;
  estimates_of_cvi: number | null;
  estimates_of_cvg: number | null;
  reported_cvi_lower_confidence_interval: number | null;
  reported_cvi_upper_confidence_interval: number | null;
  calculated_within_bv_lower_ci: number | null;
  calculated_within_bv_upper_ci: number | null;
  reported_cvg_lower_confidence_interval: number | null;
  reported_cvg_upper_confidence_interval: number | null;
  calculated_between_bv_lower_ci: number | null;
  calculated_between_bv_upper_ci: number | null;
}

/** A displayed meta-analysis result and the datasets it used (the contract's MetaRecord). */
export interface MetaUseResult {
  var_type: ':cvi' | ':cvg';
  datasets: readonly { bv_specification_id: number }[];
}

/** One estimate (CVI or CVG) of a dataset in the measurand's meta-analyses. */
export type EstimateUse =
  { used: true } | { used: false; reasons: ExclusionReason[] | 'not in the estimate' };

export interface MetaUse {
  /** Used in at least one displayed meta-analysis result (the row is green). */
  used: boolean;
  cvi: EstimateUse;
  cvg: EstimateUse;
}

const GRADES: readonly string[] = ['A', 'B', 'C', 'D'];

/**
 * What the meta-analyses of a measurand actually did with a dataset: "used" means its id is among the
 * datasets of a meta result (MetaRecord.datasets), not the curator's flag. An estimate left out is
 * explained by the domain's one eligibility rule (exclusionReasonsOf), read from the dataset's own
 * fields; one that meets every rule and is still not in a result is said to be so.
 */
export function metaUseOf(d: MetaUseDataset, metas: readonly MetaUseResult[]): MetaUse {
  const usedFor = (varType: ':cvi' | ':cvg') =>
    metas.some((m) => m.var_type === varType && m.datasets.some((x) => x.bv_specification_id === d.id));
  const grade = GRADES.includes(d.total_score) ? (d.total_score as OverallGrade) : null;
  const estimate = (
    varType: ':cvi' | ':cvg',
    cv: number | null,
    reported: [number | null, number | null],
    calculated: [number | null, number | null],
  ): EstimateUse => {
    if (usedFor(varType)) return { used: true };
    const ci = metaCiOf(
      { lower: reported[0], upper: reported[1] },
      { lower: calculated[0], upper: calculated[1] },
    );
    const reasons = exclusionReasonsOf({
      includedByCurator: Number(d.include_in_meta_analysis) === 1,
      healthy: Number(d.healthy) === 1,
      directAnova: (d.evidence_class ?? 'direct-anova') === 'direct-anova',
      grade,
      cv,
      ciLower: ci.ciLower,
      ciUpper: ci.ciUpper,
    });
    return { used: false, reasons: reasons.length > 0 ? reasons : 'not in the estimate' };
  };
  const cvi = estimate(
    ':cvi',
    d.estimates_of_cvi,
    [d.reported_cvi_lower_confidence_interval, d.reported_cvi_upper_confidence_interval],
    [d.calculated_within_bv_lower_ci, d.calculated_within_bv_upper_ci],
  );
  const cvg = estimate(
    ':cvg',
    d.estimates_of_cvg,
    [d.reported_cvg_lower_confidence_interval, d.reported_cvg_upper_confidence_interval],
    [d.calculated_between_bv_lower_ci, d.calculated_between_bv_upper_ci],
  );
  return { used: cvi.used || cvg.used, cvi, cvg };
}

/** The reasons in words; without an estimate its missing CI goes without saying. */
const why = (u: Extract<EstimateUse, { used: false }>) =>
  u.reasons === 'not in the estimate'
    ? 'meets every rule but is not in the current estimate'
    : u.reasons
        .filter((r) => !(r === 'no confidence interval' && u.reasons.includes('no estimate')))
        .join(', ');

/**
 * The sentence of the dataset table: "Used for CVI and CVG", "Used for CVI; CVG left out: no
 * confidence interval", "Flagged for inclusion, left out (CVI and CVG): no confidence interval",
 * or "Not included by the curator".
 */
export function describeMetaUse(u: MetaUse): string {
  const { cvi, cvg } = u;
  if (cvi.used && cvg.used) return 'Used for CVI and CVG';
  if (cvi.used && !cvg.used) return `Used for CVI; CVG left out: ${why(cvg)}`;
  if (cvg.used && !cvi.used) return `Used for CVG; CVI left out: ${why(cvi)}`;
  if (cvi.used || cvg.used) return '';
  const flagged = !(Array.isArray(cvi.reasons) && cvi.reasons.includes('not included by the curator'));
  if (!flagged) return 'Not included by the curator';
  return why(cvi) === why(cvg)
    ? `Flagged for inclusion, left out (CVI and CVG): ${why(cvi)}`
    : `Flagged for inclusion, left out: CVI ${why(cvi)}; CVG ${why(cvg)}`;
}
