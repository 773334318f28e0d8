import { requireNonNegative } from './errors.js';

export interface ApsLevel {
  /** maximum allowable imprecision (CVA), % */
  imprecision: number;
  /** maximum allowable bias, % */
  bias: number;
  /** total allowable error: bias + 1.65 × imprecision, % */
  totalError: number;
  /** maximum allowable expanded measurement uncertainty, % */
  mau: number;
}

export interface ApsResult {
  minimum: ApsLevel;
  desirable: ApsLevel;
  optimal: ApsLevel;
}

const level = (cvi: number, cvg: number, k: number): ApsLevel => {
  const imprecision = 0.5 * k * cvi;
  const bias = 0.25 * k * Math.sqrt(cvi * cvi + cvg * cvg);
  return { imprecision, bias, totalError: bias + 1.65 * imprecision, mau: k * cvi };
};

/**
 * Analytical performance specifications from BV (Fraser et al., Ann Clin Biochem 1997;34:8-12;
 * MAU: Sandberg et al., CCLM 2024;62:1483-9): imprecision 0.75/0.5/0.25·CVI, bias
 * 0.375/0.25/0.125·√(CVI²+CVG²), TE = bias + 1.65·imprecision, MAU 1.5/1/0.5·CVI
 * (minimum/desirable/optimal). Unrounded; display with formatFixed(·, 1).
 */
export function calculateAps(cvi: number, cvg: number): ApsResult {
  requireNonNegative(cvi, 'CVI');
  requireNonNegative(cvg, 'CVG');
  return { minimum: level(cvi, cvg, 1.5), desirable: level(cvi, cvg, 1), optimal: level(cvi, cvg, 0.5) };
}

/** The variant one calculator states for desirable TE: 1.65×(0.5×CVI) + 0.25×√(CVI²+CVG²) (spec §9). */
export function desirableTotalErrorVariant(cvi: number, cvg: number): number {
  requireNonNegative(cvi, 'CVI');
  requireNonNegative(cvg, 'CVG');
  return 1.65 * (0.5 * cvi) + 0.25 * Math.sqrt(cvi * cvi + cvg * cvg);
}

/** One level as bvdb's own outputs give it: Bias and TE null where there is no CVG (issue 27.5). */
export interface ApsOutputLevel {
  imprecision: number;
  bias: number | null;
  totalError: number | null;
  mau: number;
}

/**
 * The APS for bvdb's own outputs (API answers, exports, anything new; decision 043): without a CVG
 * (null or 0) Bias and TE are null, never the understated values CVG 0 would give. The spec's
 * calculator keeps its conversion of an empty CVG to 0 (calculateAps) and says so under its table.
 */
export function apsForOutput(cvi: number, cvg: number | null): Record<keyof ApsResult, ApsOutputLevel> {
  const aps = calculateAps(cvi, cvg ?? 0);
  const withCvg = cvg !== null && cvg > 0;
  const out = (l: ApsLevel): ApsOutputLevel =>
    withCvg ? l : { imprecision: l.imprecision, bias: null, totalError: null, mau: l.mau };
  return { minimum: out(aps.minimum), desirable: out(aps.desirable), optimal: out(aps.optimal) };
}
