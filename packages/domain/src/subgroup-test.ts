import { chiSquareCdf, normalQuantile } from './distributions.js';

/**
 * Does a population's CV differ from another's? A subgroup (moderator) test on the natural log of
 * each study's CV, as a meta-analysis compares subgroups: Borenstein, Hedges, Higgins & Rothstein,
 * Introduction to Meta-Analysis (Wiley 2009), ch. 19 ("Subgroup analyses", the Q-test based on
 * analysis of variance, with a common τ² across subgroups), computed exactly as metafor's
 * `rma(yi, vi, mods = ~ factor(group))` omnibus moderator test QM (Viechtbauer W., Conducting
 * meta-analyses in R with the metafor package, J Stat Softw 2010;36(3):1–48): τ² by REML (Fisher
 * scoring with step halving, as metafor), or τ² = 0 for the fixed-effect test (`method = "FE"`).
 * Fixtures from R: src/fixtures/subgroup-test.R → subgroup-test.json.
 *
 * With a factor as the only moderator the model is one mean per group with weights 1/(vᵢ + τ²), and
 * QM (the Wald test that all group means are equal, df = groups − 1) equals the weighted
 * between-group Q: Σ_g W_g (ȳ_g − ȳ)², W_g = Σ_{i∈g} wᵢ, ȳ = Σ W_g ȳ_g / Σ W_g.
 */

export interface SubgroupStudy {
  group: string;
  /** The study's CV (%), > 0. */
  cv: number;
  /** Its confidence interval (95 %), when given: the variance of ln CV comes from it. */
  ciLower?: number | null;
  ciUpper?: number | null;
  /** Its degrees of freedom, used when there is no CI: var(ln CV) ≈ 1 / (2 df). */
  df?: number | null;
}

export type SubgroupMethod = 'REML' | 'FE';

export interface SubgroupGroup {
  group: string;
  k: number;
  /** The group's pooled ln CV (the model's coefficient) and its back-transform, a CV in %. */
  logMean: number;
  se: number;
  cv: number;
}

export interface SubgroupTestResult {
  method: SubgroupMethod;
  groups: SubgroupGroup[];
  /** The between-subgroup statistic (metafor's QM), its df and p-value (χ² upper tail). */
  qm: number;
  df: number;
  p: number;
  /** The residual heterogeneity τ² (0 for FE), and the test for it (metafor's QE, QEp). */
  tau2: number;
  qe: number;
  qeDf: number;
  qeP: number;
  /** Studies with neither a usable CI nor degrees of freedom, left out. */
  skipped: number;
}

const Z975 = normalQuantile(0.975);

/**
 * ln CV and its sampling variance: from a 95 % CI on the log scale, ((ln U − ln L) / (2 · 1.96))²,
 * when both limits are positive and U > L; else from the degrees of freedom, 1 / (2 df) (the
 * variance of ln s for a normal sample, Bartlett & Kendall, JRSS Suppl 1946;8:128–38); else null.
 */
export function logCvWithVariance(s: Omit<SubgroupStudy, 'group'>): { yi: number; vi: number } | null {
  if (!(s.cv > 0) || !Number.isFinite(s.cv)) return null;
  const yi = Math.log(s.cv);
  const lo = s.ciLower ?? null;
  const hi = s.ciUpper ?? null;
  if (lo !== null && hi !== null && lo > 0 && hi > lo && Number.isFinite(hi)) {
    const se = (Math.log(hi) - Math.log(lo)) / (2 * Z975);
    return { yi, vi: se * se };
  }
  if (s.df !== null && s.df !== undefined && s.df > 0 && Number.isFinite(s.df))
    return { yi, vi: 1 / (2 * s.df) };
  return null;
}

interface Cell {
  group: string;
  y: number[];
  v: number[];
}

/** Σ over the groups' blocks of what REML's Fisher scoring needs at one τ². */
function remlParts(cells: Cell[], tau2: number) {
  let trP = 0;
  let yPPy = 0;
  let trPP = 0;
  for (const c of cells) {
    const w = c.v.map((v) => 1 / (v + tau2));
    const W = w.reduce((a, b) => a + b, 0);
    const mean = w.reduce((a, wi, i) => a + wi * c.y[i]!, 0) / W;
    const s1 = W;
    const s2 = w.reduce((a, wi) => a + wi * wi, 0);
    const s3 = w.reduce((a, wi) => a + wi * wi * wi, 0);
    trP += s1 - s2 / W;
    yPPy += w.reduce((a, wi, i) => a + wi * wi * (c.y[i]! - mean) ** 2, 0);
    trPP += s2 - (2 * s3) / W + (s2 * s2) / (W * W);
  }
  return { trP, yPPy, trPP };
}

/** REML τ² of the one-way model, by Fisher scoring with step halving from 0 (as metafor's rma). */
function remlTau2(cells: Cell[]): number {
  let tau2 = 0;
  for (let it = 0; it < 1000; it++) {
    const { trP, yPPy, trPP } = remlParts(cells, tau2);
    let adj = (yPPy - trP) / trPP;
    while (tau2 + adj < 0) adj /= 2;
    tau2 += adj;
    if (Math.abs(adj) < 1e-12) break;
  }
  return tau2;
}

/**
 * The subgroup test of the studies' ln CV between their groups (see the top of this file). Needs at
 * least two groups; a group needs at least one study (two for a test worth stating, the caller's rule).
 */
export function subgroupTest(
  studies: readonly SubgroupStudy[],
  method: SubgroupMethod = 'REML',
): SubgroupTestResult | null {
  const byGroup = new Map<string, Cell>();
  let skipped = 0;
  for (const s of studies) {
    const e = logCvWithVariance(s);
    if (!e) {
      skipped++;
      continue;
    }
    const c = byGroup.get(s.group) ?? { group: s.group, y: [], v: [] };
    c.y.push(e.yi);
    c.v.push(e.vi);
    byGroup.set(s.group, c);
  }
  // Canonical order (groups by name, studies by ln CV then variance): the result does not depend,
  // to the last bit, on the order of the studies or of the groups.
  const cells = [...byGroup.values()]
    .sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0))
    .map((c) => {
      const order = c.y.map((_, i) => i).sort((i, j) => c.y[i]! - c.y[j]! || c.v[i]! - c.v[j]!);
      return { group: c.group, y: order.map((i) => c.y[i]!), v: order.map((i) => c.v[i]!) };
    });
  const k = cells.reduce((a, c) => a + c.y.length, 0);
  if (cells.length < 2 || k <= cells.length - 1) return null;

  const tau2 = method === 'FE' || k === cells.length ? 0 : remlTau2(cells);
  const groups: SubgroupGroup[] = [];
  let sumW = 0;
  let sumWy = 0;
  const means: { W: number; mean: number }[] = [];
  for (const c of cells) {
    const w = c.v.map((v) => 1 / (v + tau2));
    const W = w.reduce((a, b) => a + b, 0);
    const mean = w.reduce((a, wi, i) => a + wi * c.y[i]!, 0) / W;
    means.push({ W, mean });
    sumW += W;
    sumWy += W * mean;
    groups.push({ group: c.group, k: c.y.length, logMean: mean, se: Math.sqrt(1 / W), cv: Math.exp(mean) });
  }
  const grand = sumWy / sumW;
  const qm = means.reduce((a, m) => a + m.W * (m.mean - grand) ** 2, 0);
  const df = cells.length - 1;

  // QE: the residual heterogeneity test, always with the fixed-effect weights 1/vᵢ (as metafor).
  let qe = 0;
  for (const c of cells) {
    const w = c.v.map((v) => 1 / v);
    const W = w.reduce((a, b) => a + b, 0);
    const mean = w.reduce((a, wi, i) => a + wi * c.y[i]!, 0) / W;
    qe += w.reduce((a, wi, i) => a + wi * (c.y[i]! - mean) ** 2, 0);
  }
  const qeDf = k - cells.length;
  return {
    method,
    groups,
    qm,
    df,
    p: 1 - chiSquareCdf(qm, df),
    tau2,
    qe,
    qeDf,
    qeP: qeDf > 0 ? 1 - chiSquareCdf(qe, qeDf) : 1,
    skipped,
  };
}

/** "p = 0.21", "p = 0.003", "p < 0.001". */
export function formatPValue(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p < 0.01 ? p.toFixed(3) : p.toFixed(2)}`;
}

const possessive = (label: string) => (label.endsWith('s') ? `${label}'` : `${label}'s`);

/**
 * The plain sentence of a subgroup test, e.g. "Athletes' CVI of ALT is higher than healthy adults':
 * 21.4 % vs 9.3 %, p = 0.003." At p ≥ alpha it says the difference is not significant.
 */
export function subgroupSentence(input: {
  measurand: string;
  /** "CVI" or "CVG". */
  estimate: string;
  a: { label: string; cv: number };
  b: { label: string; cv: number };
  p: number;
  alpha?: number;
}): string {
  const { a, b, p } = input;
  const alpha = input.alpha ?? 0.05;
  const first = possessive(a.label);
  const subject = first.charAt(0).toUpperCase() + first.slice(1);
  const relation =
    p >= alpha ? 'does not differ significantly from' : a.cv > b.cv ? 'is higher than' : 'is lower than';
  return `${subject} ${input.estimate} of ${input.measurand} ${relation} ${possessive(b.label)}: ${a.cv.toFixed(1)} % vs ${b.cv.toFixed(1)} %, ${formatPValue(p)}.`;
}
