import { rcvAsymmetric, zFromProbability } from './rcv.js';

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
  const change = ((second - first) / first) * 100;
  const { up, down } = rcvAsymmetric(cvi, cva, z);
  if (cva === 0) return { kind: 'without-cva', z, change, up, down, message: RCV_NEEDS_CVA_MESSAGE };
  const realChange = change > 0 ? change > up : change < down;
  return { kind: 'verdict', z, change, up, down, realChange };
}
