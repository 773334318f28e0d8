import type { ApsOutputLevel, ApsResult } from '../aps.js';
import type { HomogeneityCheck, NormalityCheck, SteadyState } from './checks.js';

export interface EstimationRow {
  subject: string;
  sample: string;
  replicate: string | number;
  /** null: a missing result, counted and reported, never imputed */
  value: number | null;
  /** sex or group; each group is also estimated on its own */
  group?: string;
}

export interface EstimationOptions {
  /** significance level of every test and 1 − confidence of every interval (default 0.05) */
  alpha: number;
  /** what an outlying replicate pair removes: that sample, the whole subject, or nothing (step off); default "sample" */
  replicate_outlier: 'sample' | 'subject' | 'none';
  /** Cochran's C on the within-subject variances (default true) */
  sample_outlier: boolean;
  /** Reed's criterion on the subject means (default true) */
  reed: boolean;
  /** subject-level percentile bootstrap, seeded (default off) */
  bootstrap?: { replicates: number; seed: number };
}

export interface Exclusion {
  step: 'replicate_cochran' | 'sample_cochran' | 'reed';
  subject: string;
  sample?: string;
  /** Cochran's C, or for Reed the gap divided by the range */
  statistic: number;
  /** the critical value the statistic exceeded (1/3 for Reed) */
  critical: number;
  /** null for Reed's criterion, which has no p-value */
  p: number | null;
}

export type Interval = [number, number];

export interface EstimateSet {
  cva: number;
  cvi: number;
  cvg?: number;
  cva_ci: Interval;
  cvi_ci: Interval;
  cvg_ci?: Interval;
  variance_components: { analytical: number; within: number; between?: number };
  /** subject-level percentile bootstrap intervals, when asked for */
  bootstrap?: { cva_ci: Interval; cvi_ci: Interval; cvg_ci?: Interval; replicates: number; seed: number };
}

export interface EstimationCore {
  excluded: Exclusion[];
  n_subjects: number;
  /** samples kept (subject × sample units with at least one result) */
  n_samples: number;
  /** results kept */
  n_results: number;
  counts_before: { subjects: number; samples: number; results: number; missing: number };
  grand_mean: number;
  anova: {
    between_subjects: { ms: number; df: number };
    between_samples: { ms: number; df: number };
    replicates: { ms: number; df: number };
  };
  estimates: { classic: EstimateSet; cv_anova: EstimateSet };
  derived: {
    /** which estimates the derived values use: CV-ANOVA's CVA and CVI when the scale is cv_anova */
    source: 'classic' | 'cv_anova';
    ii: number | null;
    ii_with_cva: number | null;
    /** log-normal RCV at z(1 − α/2), % */
    rcv: { up: number; down: number };
    setpoint_samples: { within_percent: number; samples: number }[];
    aps: Record<keyof ApsResult, ApsOutputLevel>;
    /** the CI a BIVAC assessor would expect of this design (Røraas 2012), CVI in % */
    design_cvi_ci: Interval | null;
  };
  checks: { steady_state: SteadyState | null; normality: NormalityCheck; homogeneity: HomogeneityCheck };
}

export interface EstimationResult extends EstimationCore {
  strata?: Record<string, EstimationCore | { error: string }>;
  options: EstimationOptions;
}
