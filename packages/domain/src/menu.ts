import { indexOfIndividuality, indexOfIndividualityWithCva } from './applications.js';
import { apsForOutput, type ApsOutputLevel } from './aps.js';
import { DomainInputError } from './errors.js';
import { rcvAsymmetric } from './rcv.js';
import {
  APS_LEVEL_NAMES,
  NO_CVG,
  NO_CVI,
  rangeOverLimits,
  workbenchZ,
  type ApsLevelName,
  type WorkbenchEstimate,
  type WorkbenchValue,
} from './workbench.js';

/**
 * A laboratory's test menu judged against BV (issue 32.2–3): per test, which APS level its CVA,
 * bias, TE and expanded uncertainty meet, sigma per level, the RCV with its own CVA, the II with and
 * without its CVA and whether a personalised reference interval is worth offering. Every number
 * from the domain's formulas (APS: Fraser et al., Ann Clin Biochem 1997;34:8-12; MAU: Sandberg et
 * al., CCLM 2024;62:1483-9; RCV: Fokkema et al., Clin Chem 2006;52:1602-3; II: Harris, Clin Chem
 * 1974;20:1535-42), each with its range over the estimates' limits (issue 32.5, `rangeOverLimits`).
 */
export type ApsJudgement = ApsLevelName | 'none';

export const APS_MEASURES = ['imprecision', 'bias', 'totalError', 'mau'] as const;
export type ApsMeasure = (typeof APS_MEASURES)[number];

/** The best first: the order a value is tried against the levels. */
const LEVELS_BEST_FIRST: readonly ApsLevelName[] = ['optimal', 'desirable', 'minimum'];

/** Below this II a personalised reference interval tells more than the population's (Harris 1974). */
export const PRRI_II_THRESHOLD = 0.6;

/** Coverage factor of the laboratory's expanded uncertainty U = k·CVA, as the MAU's (k = 2). */
export const MAU_COVERAGE = 2;

/**
 * The laboratory's total error when it gives none: TE = |bias| + 1.65·CVA (Westgard; the TE of the
 * APS, Fraser 1997). Null when CVA or bias is missing.
 */
export function labTotalError(cva: number | null, bias: number | null, te: number | null): number | null {
  if (te !== null) return te;
  return cva === null || bias === null ? null : Math.abs(bias) + 1.65 * cva;
}

/** The laboratory's expanded measurement uncertainty U = k·u with u = CVA, k = 2 (compared with the MAU). */
export const labExpandedUncertainty = (cva: number | null): number | null =>
  cva === null ? null : MAU_COVERAGE * cva;

/**
 * The best level whose specification the value meets (value ≤ specification): optimal, desirable,
 * minimum or none. Null when the value or a specification is missing (cannot be judged).
 */
export function judgeAgainstLevels(
  value: number | null,
  spec: (level: ApsLevelName) => number | null,
): ApsJudgement | null {
  if (value === null) return null;
  for (const level of LEVELS_BEST_FIRST) {
    const s = spec(level);
    if (s === null) return null;
    if (value <= s) return level;
  }
  return 'none';
}

/** Sigma = (TEa − |bias|)/CVA for one TEa (Westgard). Null without a CVA > 0 or a bias. */
export function sigmaMetric(tea: number, bias: number | null, cva: number | null): number | null {
  if (cva === null || bias === null || !(cva > 0)) return null;
  return (tea - Math.abs(bias)) / cva;
}

export interface MenuLabValues {
  /** The laboratory's CVA, % (null: not given) */
  cva: number | null;
  /** The laboratory's bias, % (its sign is kept; judged by its size) */
  bias: number | null;
  /** The laboratory's own TE, %; null: |bias| + 1.65·CVA */
  te: number | null;
}

export interface MenuTestInput extends MenuLabValues {
  cvi: WorkbenchEstimate | null;
  cvg: WorkbenchEstimate | null;
  /** The probability that a change in either direction is real (0.95 → z 1.96). */
  probability: number;
}

type PerMeasure<T> = Record<ApsMeasure, T>;
type PerLevel<T> = Record<ApsLevelName, T>;

export interface MenuTestResult {
  /** The laboratory's values as judged: CVA, |bias|, TE (given or computed) and U = 2·CVA. */
  lab: PerMeasure<number | null> & { teSource: 'given' | 'computed' | null };
  /** The APS of every level at the estimates, with ranges over their limits. */
  specs: PerLevel<PerMeasure<WorkbenchValue>>;
  /** The best level each measure meets at the point estimates. */
  apsMet: PerMeasure<ApsJudgement | null>;
  /**
   * The best level each measure meets across the limits: against the strictest specification the
   * limits give (the range's lower end). Worse than `apsMet` when the point meets and the interval not.
   */
  apsMetOverLimits: PerMeasure<ApsJudgement | null>;
  sigma: PerLevel<WorkbenchValue> | null;
  rcv: { up: WorkbenchValue; down: WorkbenchValue } | null;
  ii: WorkbenchValue;
  iiWithCva: WorkbenchValue;
  /** II (with the lab's CVA when given) below 0.6; null without an II. */
  prriUseful: boolean | null;
  z: number;
}

const missing = (why: string): WorkbenchValue => ({ value: null, range: null, why });

function checkLab(v: MenuLabValues): void {
  if (v.cva !== null && !(Number.isFinite(v.cva) && v.cva >= 0)) {
    throw new DomainInputError('CVA must be a number of 0 or more');
  }
  if (v.bias !== null && !Number.isFinite(v.bias)) throw new DomainInputError('bias must be a number');
  if (v.te !== null && !(Number.isFinite(v.te) && v.te >= 0)) {
    throw new DomainInputError('TE must be a number of 0 or more');
  }
}

/**
 * One test of the menu (issue 32.3). The specifications come from `apsForOutput` (bias and TE need a
 * CVG), the laboratory's values are judged against each level (value ≤ specification), sigma is
 * (TEa − |bias|)/CVA for each level's TEa, the RCV uses the laboratory's CVA (not the desirable one),
 * the II is given with and without that CVA (Fraser & Harris 1989) and a personalised reference
 * interval is worth offering when that II is below 0.6 (Harris 1974; Coskun et al., Clin Chem
 * 2021;67:374-84).
 */
export function menuTest(input: MenuTestInput): MenuTestResult {
  checkLab(input);
  const z = workbenchZ(input.probability);
  const { cvi, cva, bias } = input;
  const cvg = input.cvg && input.cvg.median > 0 ? input.cvg : null;
  const te = labTotalError(cva, bias, input.te);
  const lab = {
    imprecision: cva,
    bias: bias === null ? null : Math.abs(bias),
    totalError: te,
    mau: labExpandedUncertainty(cva),
    teSource: input.te !== null ? ('given' as const) : te !== null ? ('computed' as const) : null,
  };
  const specOf = (i: number, g: number | null, level: ApsLevelName): ApsOutputLevel =>
    apsForOutput(i, g)[level];
  const pickOf: Record<ApsMeasure, (l: ApsOutputLevel) => number | null> = {
    imprecision: (l) => l.imprecision,
    bias: (l) => l.bias,
    totalError: (l) => l.totalError,
    mau: (l) => l.mau,
  };
  const specValue = (level: ApsLevelName, measure: ApsMeasure): WorkbenchValue => {
    if (!cvi) return missing(NO_CVI);
    const pick = pickOf[measure];
    const value = pick(specOf(cvi.median, cvg?.median ?? null, level));
    if (value === null) return missing(NO_CVG);
    const range = rangeOverLimits((i, g) => pick(specOf(i, cvg ? g : null, level)) ?? Number.NaN, cvi, cvg);
    return { value, range, why: null };
  };
  const specs = Object.fromEntries(
    APS_LEVEL_NAMES.map((level) => [
      level,
      Object.fromEntries(APS_MEASURES.map((m) => [m, specValue(level, m)])) as PerMeasure<WorkbenchValue>,
    ]),
  ) as PerLevel<PerMeasure<WorkbenchValue>>;
  const judge = (over: boolean) =>
    Object.fromEntries(
      APS_MEASURES.map((m) => [
        m,
        judgeAgainstLevels(lab[m], (level) => {
          const s = specs[level][m];
          return over && s.range ? Math.min(s.value ?? Infinity, s.range.lower) : s.value;
        }),
      ]),
    ) as PerMeasure<ApsJudgement | null>;

  const sigmaOf = (level: ApsLevelName): WorkbenchValue => {
    const tea = specs[level].totalError;
    if (tea.value === null) return tea;
    const value = sigmaMetric(tea.value, bias, cva);
    if (value === null) return missing(cva === null || !(cva > 0) ? 'no CVA > 0' : 'no bias');
    // Sigma rises with TEa, so its range is the TEa's range put through the same formula.
    const range = tea.range
      ? {
          lower: sigmaMetric(tea.range.lower, bias, cva)!,
          upper: sigmaMetric(tea.range.upper, bias, cva)!,
          limits: tea.range.limits,
        }
      : null;
    return { value, range, why: null };
  };
  const canSigma = cvi !== null && cva !== null && cva > 0 && bias !== null;
  const sigma = canSigma
    ? (Object.fromEntries(APS_LEVEL_NAMES.map((l) => [l, sigmaOf(l)])) as PerLevel<WorkbenchValue>)
    : null;

  let rcv: MenuTestResult['rcv'] = null;
  if (cvi && cva !== null) {
    const point = rcvAsymmetric(cvi.median, cva, z);
    // The laboratory's CVA is its own: only the CVI moves over the limits.
    const over = (pick: (r: { up: number; down: number }) => number) =>
      rangeOverLimits((i) => pick(rcvAsymmetric(i, cva, z)), cvi, null);
    rcv = {
      up: { value: point.up, range: over((r) => r.up), why: null },
      down: { value: point.down, range: over((r) => r.down), why: null },
    };
  }

  const iiOf = (f: (i: number, g: number) => number): WorkbenchValue => {
    if (!cvi) return missing(cvg ? NO_CVI : `${NO_CVI} and ${NO_CVG}`);
    if (!cvg) return missing(NO_CVG);
    return {
      value: f(cvi.median, cvg.median),
      range: rangeOverLimits((i, g) => (g > 0 ? f(i, g) : Number.NaN), cvi, cvg),
      why: null,
    };
  };
  const ii = iiOf(indexOfIndividuality);
  const iiWithCva = cva === null ? missing('no CVA') : iiOf((i, g) => indexOfIndividualityWithCva(i, cva, g));
  const iiJudged = iiWithCva.value ?? ii.value;
  return {
    lab,
    specs,
    apsMet: judge(false),
    apsMetOverLimits: judge(true),
    sigma,
    rcv,
    ii,
    iiWithCva,
    prriUseful: iiJudged === null ? null : iiJudged < PRRI_II_THRESHOLD,
    z,
  };
}
