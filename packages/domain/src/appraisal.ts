import { QUALITY_ITEMS, type BivacGrades, type Grade, type QualityItemKey } from './bivac.js';

/**
 * The BIVAC items on which two independent appraisals differ, in checklist order (Aarsand et al.,
 * Clin Chem 2018;64:501-14: two assessors, a third on disagreement).
 */
export function disputedItems(a: BivacGrades, b: BivacGrades): QualityItemKey[] {
  return QUALITY_ITEMS.filter((item) => a[item.key] !== b[item.key]).map((item) => item.key);
}

/**
 * The final grades of a round: the items both assessors agree on, and the third assessor's decision
 * on each disputed item. Throws when a disputed item has no decision.
 */
export function finalGradesOf(
  a: BivacGrades,
  b: BivacGrades,
  decisions: Partial<Record<QualityItemKey, Grade>> = {},
): BivacGrades {
  const out: Partial<BivacGrades> = {};
  for (const item of QUALITY_ITEMS) {
    if (a[item.key] === b[item.key]) out[item.key] = a[item.key];
    else {
      const decided = decisions[item.key];
      if (decided === undefined) throw new Error(`No decision on the disputed item ${item.key}`);
      out[item.key] = decided;
    }
  }
  return out as BivacGrades;
}

/**
 * Cohen's kappa of two raters over paired ratings (Cohen, Educ Psychol Meas 1960;20:37-46):
 * κ = (pₒ − pₑ) / (1 − pₑ), pₒ the observed share of agreement and pₑ = Σₖ pA(k)·pB(k) the agreement
 * expected by chance from each rater's own category shares. Null when there are no pairs, or when
 * both raters used one and the same category throughout (pₑ = 1: kappa is undefined).
 */
export function cohensKappa(pairs: readonly (readonly [string, string])[]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  let agree = 0;
  for (const [x, y] of pairs) {
    if (x === y) agree += 1;
    first.set(x, (first.get(x) ?? 0) + 1);
    second.set(y, (second.get(y) ?? 0) + 1);
  }
  const po = agree / n;
  let pe = 0;
  for (const [category, count] of first) pe += (count / n) * ((second.get(category) ?? 0) / n);
  if (pe >= 1) return null;
  return (po - pe) / (1 - pe);
}

/** The share of paired ratings that agree (null without pairs). */
export function agreementShare(pairs: readonly (readonly [string, string])[]): number | null {
  if (pairs.length === 0) return null;
  return pairs.filter(([x, y]) => x === y).length / pairs.length;
}
