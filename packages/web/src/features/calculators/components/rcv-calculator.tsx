import {
  formatFixed,
  RCV_NOT_MEANINGFUL_MESSAGE,
  rcvAsymmetric,
  rcvModellingCurve,
  rcvSymmetric,
} from '@bvdb/domain';
import { lazy, Suspense } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { Loading } from '../../../components/state-views';
import { HeaderRow } from '../../../components/header-row';
import { ScrollRegion } from '../../../components/scroll-region';
import { cviOf, cvOf, useRcvInputs, zOfInputs, zPhrase, type RcvInputs } from '../use-rcv-inputs';
import { CVA_ZERO_ALERT } from '../cva-zero';
import { RcvCurveTable } from './rcv-curve-table';
import { RcvInputsCard } from './rcv-inputs-card';

const RcvChart = lazy(() => import('./rcv-chart'));

function compute(cvi: number, cva: number, ci: number, z: number) {
  const rcv = rcvAsymmetric(cvi, cva, z);
  const low = rcvAsymmetric(Math.max(cvi - ci, 0), cva, z);
  const high = rcvAsymmetric(cvi + ci, cva, z);
  return { rcv, low, high, symmetric: rcvSymmetric(cvi, cva, z), curve: rcvModellingCurve(cvi, cva) };
}

/**
 * The results of the asymmetric (log-normal) RCV (Fokkema et al., Clin Chem 2006;52:1602-3) for a set
 * of inputs: shown after the first change (spec section 4); for z ≤ 0 (a probability of 0.5 or more
 * in one direction) a sentence that an RCV is not meaningful instead of numbers.
 */
export function RcvResults({ inputs }: { inputs: RcvInputs }) {
  if (!inputs.changed) return <p className="text-muted">Change a value to see the results.</p>;
  const { z } = zOfInputs(inputs);
  if (z === null) return null;
  if (z <= 0)
    return (
      <Alert variant="warning" data-testid="rcv-not-meaningful">
        {RCV_NOT_MEANINGFUL_MESSAGE}
      </Alert>
    );
  const cviN = cviOf(inputs);
  const cvaN = cvOf(inputs.cva);
  const ciN = cvOf(inputs.ci);
  const result = compute(cviN, cvaN, ciN, z);
  // Spec section 5 counts a blank CVA as 0; the result is then without analytical variation and says
  // so with the RCV tool's own alert and label, never as a plain row (issue 42.3, docs/decisions/084).
  const withoutCva = cvaN === 0;
  return (
    <Card className="mb-3" aria-live="polite">
      <Card.Header as="h2" className="h6">
        Results
      </Card.Header>
      <Card.Body>
        {withoutCva ? (
          <Alert variant="danger" data-testid="rcv-cva-zero">
            {CVA_ZERO_ALERT}
          </Alert>
        ) : null}
        <ScrollRegion label="Reference change values (scrolls sideways)">
          <Table bordered size="sm">
            <caption className="caption-top">
              Reference change values{withoutCva ? ', without analytical variation' : ''} (
              {zPhrase(z, inputs)})
            </caption>
            <thead>
              <HeaderRow names={['CVI', 'CVA', 'z', 'RCV Increase', 'RCV Decrease', 'Symmetric RCV']} />
            </thead>
            <tbody>
              <tr data-testid="rcv-row">
                <td>{formatFixed(cviN, 2)}%</td>
                <td>{withoutCva ? 'without analytical variation' : `${formatFixed(cvaN, 2)}%`}</td>
                <td>{formatFixed(z, 2)}</td>
                <td data-testid="rcv-up">
                  +{formatFixed(result.rcv.up, 1)}%
                  {ciN > 0
                    ? ` (95% CI ${formatFixed(result.low.up, 1)} to ${formatFixed(result.high.up, 1)})`
                    : ''}
                </td>
                <td data-testid="rcv-down">
                  {formatFixed(result.rcv.down, 1)}%
                  {ciN > 0
                    ? ` (95% CI ${formatFixed(result.high.down, 1)} to ${formatFixed(result.low.down, 1)})`
                    : ''}
                </td>
                <td data-testid="rcv-symmetric">±{formatFixed(result.symmetric, 1)}%</td>
              </tr>
            </tbody>
          </Table>
        </ScrollRegion>
        <Suspense fallback={<Loading />}>
          <RcvChart curve={result.curve} withoutCva={withoutCva} />
        </Suspense>
        <RcvCurveTable curve={result.curve} withoutCva={withoutCva} />
        <p className="small text-muted mt-2 mb-0">
          Log-normal RCV: 100·(exp(±z·√2·√(ln(1+CVA²)+ln(1+CVI²))) − 1), CVs as fractions (Fokkema MR et al.,
          Clin Chem 2006;52:1602-3). Symmetric RCV: z·√2·√(CVA²+CVI²) (Harris EK, Yasaka T, Clin Chem
          1983;29:25-30). z is the inverse normal of 1 − probability for a change in one stated direction, of
          1 − probability/2 for a change in either direction.
        </p>
      </Card.Body>
    </Card>
  );
}

/** The asymmetric RCV calculator on its own: its inputs and its results. */
export function RcvCalculator({ initialCvi }: { initialCvi?: number | null }) {
  const inputs = useRcvInputs({ initialCvi });
  return (
    <>
      <RcvInputsCard inputs={inputs} />
      <RcvResults inputs={inputs} />
    </>
  );
}
