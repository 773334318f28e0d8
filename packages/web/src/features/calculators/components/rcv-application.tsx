import { formatFixed, percentChange, rcvAsymmetric, rcvModellingCurve, zFromProbability } from '@bvdb/domain';
import { lazy, Suspense, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import { Loading } from '../../../components/state-views';
import { toNumberOrZero } from '../number-input';
import { NumberFields } from './number-field';
import { RcvCurveTable } from './rcv-curve-table';
import { HeaderRow } from '../../../components/header-row';

const RcvChart = lazy(() => import('./rcv-chart'));

export const CVA_ZERO_ALERT = 'Analytical CV (CVA) is zero – RCV calculation may be inaccurate.';

/** "Application of the RCV": is the change between two results larger than the RCV? */
export function RcvApplication({
  initialCvi,
  initialCva,
}: {
  initialCvi?: number | null;
  initialCva?: number | null;
}) {
  const id = useId();
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  const [cvi, setCvi] = useState(initialCvi != null ? formatFixed(initialCvi, 1) : '');
  const [cva, setCva] = useState(initialCva != null ? formatFixed(initialCva, 1) : '0');
  const r1 = toNumberOrZero(first);
  const r2 = toNumberOrZero(second);
  const change = percentChange(r1, r2);
  const cviN = Math.max(toNumberOrZero(cvi), 0);
  const cvaN = Math.max(toNumberOrZero(cva), 0);
  const rcv95 = rcvAsymmetric(cviN, cvaN, zFromProbability(0.025));
  const significant = change >= rcv95.up || change <= rcv95.down;
  const curve = rcvModellingCurve(cviN, cvaN);
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="h5">
        Application of the RCV
      </h2>
      <div className="row g-3 mb-3">
        <NumberFields
          idPrefix={id}
          className="col-6 col-md-3"
          fields={[
            { name: 'r1', label: '1st Result', value: first, onChange: setFirst },
            { name: 'r2', label: '2nd Result', value: second, onChange: setSecond },
            { name: 'cvi', label: 'CVI (%)', min: 0, value: cvi, onChange: setCvi },
            { name: 'cva', label: 'CVA (%)', min: 0, value: cva, onChange: setCva },
          ]}
        />
      </div>
      {cvaN === 0 ? <Alert variant="danger">{CVA_ZERO_ALERT}</Alert> : null}
      <Table bordered size="sm">
        <caption className="caption-top">Change between the two results</caption>
        <thead>
          <HeaderRow names={['Result 1', 'Result 2', '% Change']} />
        </thead>
        <tbody>
          <tr>
            <td>{formatFixed(r1, 2)}</td>
            <td>{formatFixed(r2, 2)}</td>
            <td data-testid="percent-change">{formatFixed(change, 1)}%</td>
          </tr>
        </tbody>
      </Table>
      <p>
        With CVI {formatFixed(cviN, 2)}% and CVA {formatFixed(cvaN, 2)}%, a change is significant at 95%
        (two-sided) when it is above +{formatFixed(rcv95.up, 1)}% or below {formatFixed(rcv95.down, 1)}%. The
        change of {formatFixed(change, 1)}% is{' '}
        <strong>
          {significant
            ? 'larger than the RCV: likely a real change'
            : 'within the RCV: it may be biological and analytical noise'}
        </strong>
        .
      </p>
      <Suspense fallback={<Loading />}>
        <RcvChart curve={curve} percentChange={change} />
      </Suspense>
      <RcvCurveTable curve={curve} />
    </section>
  );
}
