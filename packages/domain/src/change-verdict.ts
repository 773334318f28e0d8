import { DomainInputError } from './errors.js';
import { rcvForMeans } from './rcv.js';
import { assessChange, type ChangeDirection } from './rcv-verdict.js';
import { rangeOverLimits, type LimitsRange, type WorkbenchEstimate } from './workbench.js';

/**
 * The change verdict a laboratory system asks for (issue 45.4): is the change between two results of
 * one person real? The RCV is the log-normal one of the RCV tool (Fokkema et al., Clin Chem
 * 2006;52:1602-3), between means of n₁ and n₂ results (Fraser, CCLM 2011;50:807-12), judged by the
 * tool's own assessment (`assessChange`), so the endpoint, the tool and `/applications` agree for
 * the same inputs. The interpretation code is HL7 v2 table 0078 / v3 ObservationInterpretation:
 * `U` significant change up, `D` significant change down, and no code when the change is not
 * significant — neither table has a code for "no significant change", and `N` means "normal".
 */
export type ChangeInterpretation = 'U' | 'D' | null;

/**
 * How the probability is read: `either` (default) — the probability that a change in either
 * direction is real, two-sided z (0.95 → 1.96), as `/applications` reads it; `one` — a change in one
 * stated direction, one-sided z (0.95 → 1.64), as the RCV tool's default.
 */
export type VerdictDirection = 'either' | 'one';

export interface ChangeVerdictInput {
  /** the CVI estimate (%), with its limits when it has them */
  cvi: WorkbenchEstimate;
  /** the laboratory's analytical CV (%), greater than 0 */
  cva: number;
  x1: number;
  x2: number;
  /** the probability that a change is real, greater than 0.5 and less than 1 */
  probability: number;
  direction: VerdictDirection;
  n1: number;
  n2: number;
}

export interface ChangeVerdict {
  z: number;
  /** the RCV up (+%) and down (−%) at the CVI's point estimate */
  up: number;
  down: number;
  /** each over the CVI's limits (null without limits) */
  upRange: LimitsRange | null;
  downRange: LimitsRange | null;
  /** % change from x1 to x2 */
  change: number;
  significant: boolean;
  interpretation: ChangeInterpretation;
  text: string;
}

export const VERDICT_NEEDS_CVA_MESSAGE =
  "cva must be greater than 0: without analytical variation an RCV is too narrow for any real method, so no verdict is given (give your method's CVA, or cva=desirable)";

const toToolDirection = (d: VerdictDirection): ChangeDirection =>
  d === 'either' ? 'either-direction' : 'one-direction';

const signed = (v: number) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(v).toFixed(1)} %`;

/** The verdict, or a DomainInputError saying which input keeps it from being given. */
export function changeVerdict(input: ChangeVerdictInput): ChangeVerdict {
  if (!(input.probability > 0.5 && input.probability < 1))
    throw new DomainInputError('probability must be greater than 0.5 and less than 1');
  if (input.cva === 0) throw new DomainInputError(VERDICT_NEEDS_CVA_MESSAGE);
  const a = assessChange({
    first: input.x1,
    second: input.x2,
    cvi: input.cvi.median,
    cva: input.cva,
    // The tool takes the probability that the change is noise (its p); the answer names the other.
    probability: 1 - input.probability,
    direction: toToolDirection(input.direction),
    n1: input.n1,
    n2: input.n2,
  });
  if (a.kind !== 'verdict') throw new DomainInputError(a.message);
  // Over the CVI's limits with the CVA held (the laboratory's method does not move with the CI).
  const rcvAt = (cvi: number) => rcvForMeans(cvi, input.cva, a.z, input.n1, input.n2);
  const upRange = rangeOverLimits((i) => rcvAt(i).up, input.cvi, null);
  const downRange = rangeOverLimits((i) => rcvAt(i).down, input.cvi, null);
  const interpretation: ChangeInterpretation = a.realChange ? (a.change > 0 ? 'U' : 'D') : null;
  const text =
    interpretation === 'U'
      ? `Significant change up: ${signed(a.change)} is above the RCV of ${signed(a.up)}`
      : interpretation === 'D'
        ? `Significant change down: ${signed(a.change)} is below the RCV of ${signed(a.down)}`
        : `No significant change: ${signed(a.change)} is within the RCV (${signed(a.down)} to ${signed(a.up)})`;
  return {
    z: a.z,
    up: a.up,
    down: a.down,
    upRange,
    downRange,
    change: a.change,
    significant: a.realChange,
    interpretation,
    text,
  };
}
