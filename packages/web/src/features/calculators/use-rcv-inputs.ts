import { DomainInputError, formatFixed, zForChange, type ChangeDirection } from '@bvdb/domain';
import { useState } from 'react';
import { toNumberOrZero } from './number-input';

/** The one set of inputs an RCV modal's tools share (docs/decisions/006). */
export interface RcvInputs {
  cvi: string;
  cva: string;
  ci: string;
  probability: string;
  direction: ChangeDirection;
  /**
   * The database's CVI estimate unrounded while the CVI box still holds it as prefilled (1 decimal):
   * the RCV is then computed from the same number as the tables, the menu and the files (issue 42.5,
   * docs/decisions/084); null once the user types another CVI.
   */
  cviExact: number | null;
  /** True after the first edit: the calculator shows results only then (spec section 4). */
  changed: boolean;
  set: (field: 'cvi' | 'cva' | 'ci' | 'probability', value: string) => void;
  /** A database CVI put in the CVI box (1 decimal shown, the exact value computed with). */
  takeCvi: (cvi: number) => void;
  setDirection: (direction: ChangeDirection) => void;
}

export function useRcvInputs({
  initialCvi,
  initialCva,
}: { initialCvi?: number | null; initialCva?: number | null } = {}): RcvInputs {
  const [values, setValues] = useState({
    cvi: initialCvi != null ? formatFixed(initialCvi, 1) : '',
    cva: initialCva != null ? formatFixed(initialCva, 1) : '',
    ci: '',
    probability: '0.05',
  });
  const [direction, setDirectionState] = useState<ChangeDirection>('one-direction');
  const [changed, setChanged] = useState(false);
  const [exact, setExact] = useState<number | null>(initialCvi ?? null);
  const cviExact = exact != null && values.cvi.trim() === formatFixed(exact, 1) ? exact : null;
  return {
    ...values,
    cviExact,
    direction,
    changed,
    set: (field, value) => {
      setValues((v) => ({ ...v, [field]: value }));
      setChanged(true);
    },
    takeCvi: (cvi) => {
      setExact(cvi);
      setValues((v) => ({ ...v, cvi: formatFixed(cvi, 1) }));
      setChanged(true);
    },
    setDirection: (d) => {
      setDirectionState(d);
      setChanged(true);
    },
  };
}

/** The z of the inputs (one-sided or two-sided from the probability), or why there is none. */
export function zOfInputs(
  inputs: Pick<RcvInputs, 'probability' | 'direction'>,
): { z: number; error: null } | { z: null; error: string } {
  try {
    return { z: zForChange(Number(inputs.probability), inputs.direction), error: null };
  } catch (e) {
    return { z: null, error: e instanceof DomainInputError ? e.message : 'Invalid probability' };
  }
}

/** CVI and CVA as numbers: spec section 5, a non-number counts as 0 and a CV is never below 0. */
export const cvOf = (text: string): number => Math.max(toNumberOrZero(text), 0);

/** The CVI the tools compute with: the unrounded estimate while it is as prefilled (issue 42.5). */
export const cviOf = (inputs: Pick<RcvInputs, 'cvi' | 'cviExact'>): number =>
  inputs.cviExact ?? cvOf(inputs.cvi);

/** "p 0.05, a change in one stated direction" — how a sentence names the z it used. */
export function zPhrase(z: number, inputs: Pick<RcvInputs, 'probability' | 'direction'>): string {
  const p = Number(inputs.probability);
  return inputs.direction === 'one-direction'
    ? `z ${formatFixed(z, 2)} (p ${p}, a change in one stated direction)`
    : `z ${formatFixed(z, 2)} (p ${p}, a change in either direction)`;
}
