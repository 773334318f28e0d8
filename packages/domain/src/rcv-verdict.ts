import { changeProbability, MAX_RESULTS_AVERAGED, rcvForMeans, zFromProbability } from './rcv.js';
import { formatFixed } from './rounding.js';

/**
 * Whether a change between two results of one person exceeds the reference change value.
 * The RCV is the asymmetric (log-normal) one (Fokkema et al., Clin Chem 2006;52:1602-3), its z from
 * the probability: a change in one stated direction uses the one-sided z (p 0.05 → 1.64, the spec's
 * default), a change in either direction the two-sided z (p 0.05 → 1.96).
 */
export type ChangeDirection = 'one-direction' | 'either-direction';

export type RcvAssessment =
  /** inputs are missing or unusable: no verdict, with what the user still has to enter */
  | { kind: 'incomplete'; message: string }
  /** z ≤ 0 (probability ≥ 0.5 one-sided): an RCV means nothing there */
  | { kind: 'not-meaningful'; z: number; message: string }
  /**
   * CVA is 0 (blank or typed): the RCV is of biological variation alone, too narrow for any real
   * method, so no "real change / noise" verdict (issue 27.4); the numbers are given as such.
   */
  | {
      kind: 'without-cva';
      z: number;
      change: number;
      up: number;
      down: number;
      message: string;
    }
  | {
      kind: 'verdict';
      z: number;
      /** % change from the first result to the second */
      change: number;
      /** RCV up (+%) and down (−%) */
      up: number;
      down: number;
      /** |change| exceeds the RCV in the direction of the change (strictly) */
      realChange: boolean;
      /** the probability (0–1) that this change is real, in its direction or either (changeProbability) */
      probabilityReal: number;
      /** the second result beyond which a rise / a fall would be real, in the results' unit */
      riseAbove: number;
      fallBelow: number;
    };

export const RCV_NOT_MEANINGFUL_MESSAGE =
  'An RCV is not meaningful for a probability of 0.5 or more (z ≤ 0): choose a smaller probability.';

export const RCV_NEEDS_CVA_MESSAGE = "Enter your method's analytical CV to judge this change";

export interface ChangeInput {
  first: number | null;
  second: number | null;
  cvi: number | null;
  cva: number | null;
  probability: number;
  direction: ChangeDirection;
  /** how many results the first and the second value are each the mean of (1 when not given) */
  n1?: number;
  n2?: number;
}

/** The z the assessment uses for a probability and a kind of change. */
export function zForChange(probability: number, direction: ChangeDirection): number {
  return zFromProbability(direction === 'either-direction' ? probability / 2 : probability);
}

const usable = (v: number | null): v is number => v !== null && Number.isFinite(v);

export function assessChange(input: ChangeInput): RcvAssessment {
  const { first, second, cvi, cva } = input;
  if (!usable(first) || first <= 0)
    return { kind: 'incomplete', message: 'Enter a first result greater than 0 to assess the change.' };
  if (!usable(second) || second < 0)
    return { kind: 'incomplete', message: 'Enter the second result to assess the change.' };
  if (!usable(cvi) || cvi <= 0)
    return { kind: 'incomplete', message: 'Enter the CVI (greater than 0) to assess the change.' };
  if (!usable(cva) || cva < 0) return { kind: 'incomplete', message: 'Enter the CVA (0 or more).' };
  let z: number;
  try {
    z = zForChange(input.probability, input.direction);
  } catch (e) {
    return { kind: 'incomplete', message: e instanceof Error ? e.message : String(e) };
  }
  if (z <= 0) return { kind: 'not-meaningful', z, message: RCV_NOT_MEANINGFUL_MESSAGE };
  const n1 = input.n1 ?? 1;
  const n2 = input.n2 ?? 1;
  if (
    !Number.isInteger(n1) ||
    !Number.isInteger(n2) ||
    n1 < 1 ||
    n2 < 1 ||
    n1 > MAX_RESULTS_AVERAGED ||
    n2 > MAX_RESULTS_AVERAGED
  )
    return { kind: 'incomplete', message: RESULTS_AVERAGED_PROMPT };
  const change = ((second - first) / first) * 100;
  const { up, down } = rcvForMeans(cvi, cva, z, n1, n2);
  if (cva === 0) return { kind: 'without-cva', z, change, up, down, message: RCV_NEEDS_CVA_MESSAGE };
  const realChange = change > 0 ? change > up : change < down;
  // A fall to (almost) nothing: the log-normal z is unbounded, the change certainly real.
  const probabilityReal = change <= -100 ? 1 : changeProbability(change, cvi, cva, n1, n2, input.direction);
  return {
    kind: 'verdict',
    z,
    change,
    up,
    down,
    realChange,
    probabilityReal,
    riseAbove: first * (1 + up / 100),
    fallBelow: first * (1 + down / 100),
  };
}

export const RESULTS_AVERAGED_PROMPT = `Enter how many results each value is the mean of: a whole number from 1 to ${MAX_RESULTS_AVERAGED}.`;

/**
 * A probability in words, as a laboratory report says it: "95 %, either direction" for p 0.05 and a
 * change in either direction (two-sided), "95 %, one direction" for a change in one stated direction.
 */
export function probabilityInWords(p: number, direction: ChangeDirection): string {
  const percent = Number(((1 - p) * 100).toPrecision(6));
  return `${percent} %, ${direction === 'either-direction' ? 'either direction' : 'one direction'}`;
}

/** The probability that a change is real, as a percentage a reader takes in: "97.3 %", "> 99.9 %". */
export function formatProbabilityReal(p: number): string {
  if (p > 0.999) return '> 99.9 %';
  return `${formatFixed(p * 100, 1)} %`;
}
