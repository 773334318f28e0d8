import { chiSquareQuantile, fQuantile } from './distributions.js';
import { DomainInputError } from './errors.js';

export interface StudyDesign {
  /** I: subjects */
  subjects: number;
  /** S: samples per subject */
  samplesPerSubject: number;
  /** R: replicate measurements per sample (1 when each sample was measured once) */
  replicates: number;
  /** CVA, % */
  cva: number;
  /** CVI, % (the estimate whose CI is wanted) */
  cvi: number;
  confidence?: number;
}

/**
 * The CI of a CVI from the study design when the paper gives none: Røraas, Petersen & Sandberg,
 * Clin Chem 2012;58:1306-13. A balanced nested ANOVA with the CVs as SDs around a mean of 100:
 * MS_A = CVA² (df I·S·(R−1)), MS_WP = CVA² + R·CVI² (df I·(S−1)), σ²_I = (MS_WP − MS_A)/R, and the
 * modified large-sample limits of Graybill & Wang (J Am Stat Assoc 1980;75:869-73; Burdick &
 * Graybill 1992, §3.3) for that difference of mean squares. With R = 1 the analytical variance is
 * taken as known (it comes from elsewhere), so only MS_WP is uncertain: a chi-square interval.
 * Returns null when the design cannot give an interval (fewer than 2 subjects or samples).
 */
export function estimateCviConfidenceInterval(design: StudyDesign): { lower: number; upper: number } | null {
  const { subjects: I, samplesPerSubject: S, replicates: R, cva, cvi } = design;
  const confidence = design.confidence ?? 0.95;
  for (const [v, name] of [
    [I, 'subjects'],
    [S, 'samples per subject'],
    [R, 'replicates'],
    [cva, 'CVA'],
    [cvi, 'CVI'],
  ] as const) {
    if (!Number.isFinite(v) || v < 0) throw new DomainInputError(`${name} must be a non-negative number`);
  }
  if (!(confidence > 0 && confidence < 1)) throw new DomainInputError('confidence must be between 0 and 1');
  if (I < 2 || S < 2 || R < 1 || cvi <= 0) return null;
  const alpha = (1 - confidence) / 2;
  const n2 = I * (S - 1); // MS_WP
  const n1 = I * S * (R - 1); // MS_A
  const msWp = cva * cva + R * cvi * cvi;
  const msA = cva * cva;

  if (n1 <= 0) {
    const lower = (n2 * msWp) / chiSquareQuantile(1 - alpha, n2) - msA;
    const upper = (n2 * msWp) / chiSquareQuantile(alpha, n2) - msA;
    return { lower: Math.sqrt(Math.max(lower, 0)), upper: Math.sqrt(Math.max(upper, 0)) };
  }

  // θ = c1·S1² − c2·S2² with S1² = MS_WP (df n2), S2² = MS_A (df n1), c1 = c2 = 1/R.
  const c = 1 / R;
  const s1 = msWp;
  const s2 = msA;
  const nu1 = n2;
  const nu2 = n1;
  const G1 = 1 - nu1 / chiSquareQuantile(1 - alpha, nu1);
  const H1 = nu1 / chiSquareQuantile(alpha, nu1) - 1;
  const G2 = 1 - nu2 / chiSquareQuantile(1 - alpha, nu2);
  const H2 = nu2 / chiSquareQuantile(alpha, nu2) - 1;
  const Fhi = fQuantile(1 - alpha, nu1, nu2);
  const Flo = fQuantile(alpha, nu1, nu2);
  const G12 = ((Fhi - 1) ** 2 - G1 * G1 * Fhi * Fhi - H2 * H2) / Fhi;
  const H12 = ((1 - Flo) ** 2 - H1 * H1 * Flo * Flo - G2 * G2) / Flo;
  const theta = c * s1 - c * s2;
  const vl = G1 * G1 * c * c * s1 * s1 + H2 * H2 * c * c * s2 * s2 + G12 * c * c * s1 * s2;
  const vu = H1 * H1 * c * c * s1 * s1 + G2 * G2 * c * c * s2 * s2 + H12 * c * c * s1 * s2;
  const lower = theta - Math.sqrt(Math.max(vl, 0));
  const upper = theta + Math.sqrt(Math.max(vu, 0));
  return { lower: Math.sqrt(Math.max(lower, 0)), upper: Math.sqrt(Math.max(upper, 0)) };
}
