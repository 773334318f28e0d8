import { formatFixed, rangeOverLimits, rcvAsymmetric, type WorkbenchEstimate } from '@bvdb/domain';
import { cvOf, zOfInputs, type RcvInputs } from '../use-rcv-inputs';

const signed = (v: number) => `${v > 0 ? '+' : ''}${formatFixed(v, 1)}%`;

/**
 * The RCV over the measurand's CVI limits (issue 32.5), in its own element under the point RCV: the
 * same log-normal RCV (Fokkema et al., Clin Chem 2006;52:1602-3) with the CVI replaced by its lower
 * and upper limit, the lab's CVA and z held fixed. Shown only while the CVI is the database's
 * estimate as the modal started it, and said to be a 95 % CI or the range of the studies. With no CVA
 * (blank or 0, which the spec counts as 0) the line says it is without analytical variation, never
 * "with CVA 0.00%" (issue 42.3, docs/decisions/084).
 */
export function RcvRange({ inputs, estimate }: { inputs: RcvInputs; estimate: WorkbenchEstimate | null }) {
  const { z } = zOfInputs(inputs);
  if (!estimate || estimate.lower === null || estimate.upper === null || estimate.limits === null)
    return null;
  if (z === null || z <= 0 || inputs.cviExact !== estimate.median) return null;
  const cva = cvOf(inputs.cva);
  const up = rangeOverLimits((i) => rcvAsymmetric(i, cva, z).up, estimate, null);
  const down = rangeOverLimits((i) => rcvAsymmetric(i, cva, z).down, estimate, null);
  if (!up || !down) return null;
  const what = estimate.limits === '95 % CI' ? '95 % CI' : 'range of the studies';
  return (
    <p className="small" data-testid="rcv-range">
      Over the CVI's {what} ({formatFixed(estimate.lower, 1)}–{formatFixed(estimate.upper, 1)}%),{' '}
      {cva === 0 ? 'without analytical variation (no CVA entered)' : `with CVA ${formatFixed(cva, 2)}%`} and z{' '}
      {formatFixed(z, 2)}, the RCV is {signed(up.lower)} to {signed(up.upper)} for a rise and{' '}
      {signed(down.upper)} to {signed(down.lower)} for a fall.
    </p>
  );
}
