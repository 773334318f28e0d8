import { indexOfIndividuality } from './applications.js';
import { apsForOutput, type ApsOutputLevel, type ApsResult } from './aps.js';
import { DomainInputError } from './errors.js';
import type { LimitsKind } from './meta-limits.js';
import { rcvAsymmetric } from './rcv.js';
import { zForChange } from './rcv-verdict.js';

/**
 * The laboratory's workbench (issue 32): one row of the summary table "BV and performance
 * specifications" per measurand and matrix. Every number comes from the domain's formulas, never
 * re-derived here: the APS from `apsForOutput` (Fraser et al., Ann Clin Biochem 1997;34:8-12; MAU:
 * Sandberg et al., CCLM 2024;62:1483-9), the RCV from `rcvAsymmetric` (log-normal, Fokkema et al.,
 * Clin Chem 2006;52:1602-3) and the II from `indexOfIndividuality` (Harris, Clin Chem 1974;20:1535-42).
 */
export type ApsLevelName = keyof ApsResult;

export const APS_LEVEL_NAMES = ['minimum', 'desirable', 'optimal'] as const satisfies readonly ApsLevelName[];

/** An estimate as the table reads it: the weighted median and its limits (CI or range). */
export interface WorkbenchEstimate {
  median: number;
  lower: number | null;
  upper: number | null;
  limits: LimitsKind | null;
}

/** The lowest and highest value a formula takes over the estimates' limits, and what the limits are. */
export interface LimitsRange {
  lower: number;
  upper: number;
  limits: LimitsKind;
}

/**
 * The range of a formula f(CVI, CVG) when each estimate is replaced by its lower and upper limit
 * (issue 32.5): f at the four corners of the box, lowest and highest. Exact for a formula monotone
 * in each argument, which every formula here is (APS and RCV rise with CVI and CVG; II rises with
 * CVI and falls with CVG). A missing limit counts as the point; the point inside its limits is not
 * assumed, so a range always holds f at the limits. Null when neither estimate has both limits, or
 * when the formula is not finite at a limit.
 * The label is the CVI's limits kind, or the CVG's when only that one has limits; two different kinds
 * read "95 % CI" only when both are CIs, otherwise "range".
 */
export function rangeOverLimits(
  f: (cvi: number, cvg: number) => number,
  cvi: WorkbenchEstimate,
  cvg: WorkbenchEstimate | null,
): LimitsRange | null {
  const bounds = (e: WorkbenchEstimate | null): [number, number] | null =>
    e && e.lower !== null && e.upper !== null && e.limits !== null
      ? [Math.min(e.lower, e.upper), Math.max(e.lower, e.upper)]
      : null;
  const bi = bounds(cvi);
  const bg = bounds(cvg);
  if (!bi && !bg) return null;
  const cviValues = bi ?? [cvi.median, cvi.median];
  const cvgValues = bg ?? (cvg ? [cvg.median, cvg.median] : [Number.NaN, Number.NaN]);
  const values: number[] = [];
  for (const i of cviValues) for (const g of cvgValues) values.push(f(i, g));
  // A limit the formula cannot take (a CVG limit of 0 for the II) gives no range rather than ∞.
  if (!values.every(Number.isFinite)) return null;
  const kinds = [bi ? cvi.limits : null, bg ? cvg?.limits : null].filter((k) => k != null);
  const limits: LimitsKind = kinds.every((k) => k === '95 % CI') ? '95 % CI' : 'range';
  return { lower: Math.min(...values), upper: Math.max(...values), limits };
}

/** A value of the table: the number at the estimates, its range over their limits, or why there is none. */
export interface WorkbenchValue {
  value: number | null;
  range: LimitsRange | null;
  /** Why the value is missing ("no CVG estimate"); null when there is a value. */
  why: string | null;
}

export interface WorkbenchRowInput {
  cvi: WorkbenchEstimate | null;
  cvg: WorkbenchEstimate | null;
  level: ApsLevelName;
  /** The probability that a change is real, either direction (0.95 → z 1.96). */
  probability: number;
  /** The laboratory's own CVA (%); null: the desirable imprecision 0.5·CVI. */
  cva: number | null;
}

export interface WorkbenchRow {
  aps: { imprecision: WorkbenchValue; bias: WorkbenchValue; totalError: WorkbenchValue; mau: WorkbenchValue };
  rcv: {
    up: WorkbenchValue;
    down: WorkbenchValue;
    /** The CVA the RCV used (%), and whose: the desirable imprecision of this row or the user's. */
    cva: number | null;
    cvaSource: 'desirable' | 'user';
  };
  ii: WorkbenchValue;
  z: number;
}

export const NO_CVI = 'no CVI estimate';
export const NO_CVG = 'no CVG estimate';

/**
 * The z of the table's RCV for a probability that a change in either direction is real
 * (two-sided: 0.95 → 1.96), from the RCV assessment's own rule (`zForChange`).
 */
export function workbenchZ(probability: number): number {
  if (!Number.isFinite(probability) || probability <= 0.5 || probability >= 1) {
    throw new DomainInputError('probability must be greater than 0.5 and less than 1');
  }
  return zForChange(1 - probability, 'either-direction');
}

/** The desirable imprecision CVA = 0.5·CVI (Fraser et al. 1997), from the APS itself. */
export const desirableCva = (cvi: number): number => apsForOutput(cvi, null).desirable.imprecision;

const missing = (why: string): WorkbenchValue => ({ value: null, range: null, why });

/**
 * One row of the summary table (issue 32.1) with the range of every value over the estimates' limits
 * (issue 32.5). Without a CVI nothing is computed; without a CVG bias, TE and II are missing, with why.
 * The RCV's CVA is the user's when given, otherwise the desirable imprecision of the row's CVI point
 * estimate, held fixed across the limits (the lab's method does not change with the estimate's CI).
 */
export function workbenchRow(input: WorkbenchRowInput): WorkbenchRow {
  const z = workbenchZ(input.probability);
  if (input.cva !== null && !(Number.isFinite(input.cva) && input.cva >= 0)) {
    throw new DomainInputError('CVA must be a number of 0 or more');
  }
  const { cvi, level } = input;
  const cvg = input.cvg && input.cvg.median > 0 ? input.cvg : null;
  const cvaSource = input.cva === null ? 'desirable' : 'user';
  if (!cvi) {
    const none = missing(NO_CVI);
    return {
      aps: { imprecision: none, bias: none, totalError: none, mau: none },
      rcv: { up: none, down: none, cva: input.cva, cvaSource },
      ii: cvg ? none : missing(`${NO_CVI} and ${NO_CVG}`),
      z,
    };
  }
  const apsOf = (i: number, g: number | null): ApsOutputLevel => apsForOutput(i, g)[level];
  const point = apsOf(cvi.median, cvg?.median ?? null);
  const measure = (pick: (l: ApsOutputLevel) => number | null): WorkbenchValue => {
    const value = pick(point);
    if (value === null) return missing(NO_CVG);
    return {
      value,
      range: rangeOverLimits((i, g) => pick(apsOf(i, cvg ? g : null)) ?? Number.NaN, cvi, cvg),
      why: null,
    };
  };
  const cva = input.cva ?? desirableCva(cvi.median);
  const rcvAt = (i: number) => rcvAsymmetric(i, cva, z);
  const rcvPoint = rcvAt(cvi.median);
  // The RCV reads no CVG: its range is over the CVI's limits only.
  const rcvRange = (pick: (r: { up: number; down: number }) => number) =>
    rangeOverLimits((i) => pick(rcvAt(i)), cvi, null);
  return {
    aps: {
      imprecision: measure((l) => l.imprecision),
      bias: measure((l) => l.bias),
      totalError: measure((l) => l.totalError),
      mau: measure((l) => l.mau),
    },
    rcv: {
      up: { value: rcvPoint.up, range: rcvRange((r) => r.up), why: null },
      down: { value: rcvPoint.down, range: rcvRange((r) => r.down), why: null },
      cva,
      cvaSource,
    },
    ii: cvg
      ? {
          value: indexOfIndividuality(cvi.median, cvg.median),
          range: rangeOverLimits((i, g) => (g > 0 ? indexOfIndividuality(i, g) : Number.NaN), cvi, cvg),
          why: null,
        }
      : missing(NO_CVG),
    z,
  };
}
