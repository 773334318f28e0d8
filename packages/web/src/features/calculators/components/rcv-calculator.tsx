import {
  DomainInputError,
  formatFixed,
  rcvAsymmetric,
  rcvModellingCurve,
  rcvSymmetric,
  zFromProbability,
} from '@bvdb/domain';
import { lazy, Suspense, useId, useState } from 'react';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Loading } from '../../../components/state-views';
import { toNumberOrZero } from '../number-input';
import { RcvCurveTable } from './rcv-curve-table';
import { HeaderRow } from '../../../components/header-row';

const RcvChart = lazy(() => import('./rcv-chart'));

function compute(cvi: number, cva: number, ci: number, probability: number) {
  const z = zFromProbability(probability);
  const rcv = rcvAsymmetric(cvi, cva, z);
  const low = rcvAsymmetric(Math.max(cvi - ci, 0), cva, z);
  const high = rcvAsymmetric(cvi + ci, cva, z);
  return { z, rcv, low, high, symmetric: rcvSymmetric(cvi, cva, z), curve: rcvModellingCurve(cvi, cva) };
}

/**
 * Asymmetric (log-normal) RCV (Fokkema et al., Clin Chem 2006;52:1602-3). Recomputes on every
 * change but not on first render: results appear after the first change (spec section 4).
 */
export function RcvCalculator({ initialCvi }: { initialCvi?: number | null }) {
  const id = useId();
  const [cvi, setCvi] = useState(initialCvi != null ? formatFixed(initialCvi, 1) : '');
  const [cva, setCva] = useState('');
  const [ci, setCi] = useState('');
  const [probability, setProbability] = useState('0.05');
  const [changed, setChanged] = useState(false);
  const p = Number(probability);
  let z: number | null = null;
  let zError: string | null = null;
  try {
    z = zFromProbability(p);
  } catch (e) {
    zError = e instanceof DomainInputError ? e.message : 'Invalid probability';
  }
  const cviN = Math.max(toNumberOrZero(cvi), 0);
  const cvaN = Math.max(toNumberOrZero(cva), 0);
  const ciN = Math.max(toNumberOrZero(ci), 0);
  const result = changed && z !== null ? compute(cviN, cvaN, ciN, p) : null;
  const edit = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setChanged(true);
  };
  return (
    <>
      <Card className="mb-3">
        <Card.Header as="h2" className="h6">
          Enter Values
        </Card.Header>
        <Card.Body className="row g-3">
          <Form.Group className="col-sm-6 col-lg-3" controlId={`${id}-cvi`}>
            <Form.Label>CVI (%)</Form.Label>
            <Form.Control type="number" min={0} step={0.1} value={cvi} onChange={edit(setCvi)} />
          </Form.Group>
          <Form.Group className="col-sm-6 col-lg-3" controlId={`${id}-cva`}>
            <Form.Label>CVA (%)</Form.Label>
            <Form.Control type="number" min={0} step={0.1} value={cva} onChange={edit(setCva)} />
          </Form.Group>
          <Form.Group className="col-sm-6 col-lg-2" controlId={`${id}-ci`}>
            <Form.Label>CI of CVI (±%)</Form.Label>
            <Form.Control type="number" min={0} step={0.1} value={ci} onChange={edit(setCi)} />
          </Form.Group>
          <Form.Group className="col-sm-6 col-lg-2" controlId={`${id}-p`}>
            <Form.Label>Probability</Form.Label>
            <Form.Control
              type="number"
              min={0}
              max={1}
              step={0.01}
              value={probability}
              isInvalid={zError !== null}
              onChange={edit(setProbability)}
            />
            <Form.Control.Feedback type="invalid">{zError}</Form.Control.Feedback>
            <Form.Text>0.025 gives z 1.96; 0.05 gives 1.64</Form.Text>
          </Form.Group>
          <Form.Group className="col-sm-6 col-lg-2" controlId={`${id}-z`}>
            <Form.Label>z-value</Form.Label>
            <Form.Control readOnly value={z === null ? '' : formatFixed(z, 2)} />
          </Form.Group>
        </Card.Body>
      </Card>
      {result ? (
        <Card className="mb-3" aria-live="polite">
          <Card.Header as="h2" className="h6">
            Results
          </Card.Header>
          <Card.Body>
            <Table bordered size="sm">
              <caption className="caption-top">Reference change values</caption>
              <thead>
                <HeaderRow names={['CVI', 'CVA', 'z', 'RCV Increase', 'RCV Decrease', 'Symmetric RCV']} />
              </thead>
              <tbody>
                <tr>
                  <td>{formatFixed(cviN, 2)}%</td>
                  <td>{formatFixed(cvaN, 2)}%</td>
                  <td>{formatFixed(result.z, 2)}</td>
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
            <Suspense fallback={<Loading />}>
              <RcvChart curve={result.curve} />
            </Suspense>
            <RcvCurveTable curve={result.curve} />
            <p className="small text-muted mt-2 mb-0">
              Log-normal RCV: 100·(exp(±z·√2·√(ln(1+CVA²)+ln(1+CVI²))) − 1), CVs as fractions (Fokkema MR et
              al., Clin Chem 2006;52:1602-3). Symmetric RCV: z·√2·√(CVA²+CVI²) (Harris EK, Yasaka T, Clin Chem
              1983;29:25-30). z is the inverse normal of 1 − probability.
            </p>
          </Card.Body>
        </Card>
      ) : (
        <p className="text-muted">Change a value to see the results.</p>
      )}
    </>
  );
}
