import {
  assessChange,
  formatFixed,
  formatProbabilityReal,
  MAX_RESULTS_AVERAGED,
  percentChange,
  probabilityInWords,
  rcvModellingCurve,
  type RcvAssessment,
} from '@bvdb/domain';
import Form from 'react-bootstrap/Form';
import { lazy, Suspense, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import { Loading } from '../../../components/state-views';
import { HeaderRow } from '../../../components/header-row';
import { CVA_ZERO_ALERT } from '../cva-zero';
import { toNumberOrZero } from '../number-input';
import { cviOf, cvOf, useRcvInputs, zPhrase, type RcvInputs } from '../use-rcv-inputs';
import { NumberFields } from './number-field';
import { CviByCode } from './cvi-by-code';
import { RcvCurveTable } from './rcv-curve-table';
import { RcvInputsCard } from './rcv-inputs-card';

const RcvChart = lazy(() => import('./rcv-chart'));

/** A typed value, or null when the box is empty or not a number (no verdict on nothing). */
const enteredNumber = (text: string): number | null => {
  const n = Number(text.trim().replace(',', '.'));
  return text.trim() === '' || !Number.isFinite(n) ? null : n;
};

const signed = (v: number) => {
  const text = formatFixed(v, 1);
  return `${Number(text) > 0 ? '+' : ''}${text}%`;
};

/** The sentence of the tool for an assessment: it names the z it used, and gives no verdict on nothing. */
function Verdict({ assessment, inputs }: { assessment: RcvAssessment; inputs: RcvInputs }) {
  if (assessment.kind === 'without-cva') {
    // bvdb's own sentence (not the spec's): with CVA 0 the RCV is too narrow to judge by (issue 27.4).
    const { change, up, down, z } = assessment;
    return (
      <p data-testid="rcv-verdict">
        With CVI {formatFixed(cviOf(inputs), 2)}% and {zPhrase(z, inputs)}, the RCV without analytical
        variation is {signed(up)} for a rise and {signed(down)} for a fall; the change is {signed(change)}.{' '}
        <strong>{assessment.message}.</strong>
      </p>
    );
  }
  if (assessment.kind !== 'verdict')
    return (
      <p
        data-testid="rcv-verdict"
        className={assessment.kind === 'incomplete' ? 'text-muted' : 'text-danger'}
      >
        {assessment.message}
      </p>
    );
  const { change, up, down, z, realChange } = assessment;
  const direction = change > 0 ? 'rise' : 'fall';
  return (
    <p data-testid="rcv-verdict">
      With CVI {formatFixed(cviOf(inputs), 2)}%, CVA {formatFixed(cvOf(inputs.cva), 2)}% and{' '}
      {zPhrase(z, inputs)}, the RCV is {signed(up)} for a rise and {signed(down)} for a fall. The change of{' '}
      {signed(change)} is{' '}
      <strong>
        {realChange
          ? `a ${direction} larger than the RCV: likely a real change`
          : 'within the RCV: it may be biological and analytical noise'}
      </strong>
      .
    </p>
  );
}

const withUnit = (text: string, unit: string) => (unit.trim() ? `${text} ${unit.trim()}` : text);

/**
 * What the verdict means beyond yes/no (issue 32.6): the probability that this change is real, and
 * the second results a real rise or fall would have to pass, in the results' own unit.
 */
function ChangeDetail({
  assessment,
  inputs,
  unit,
}: {
  assessment: RcvAssessment;
  inputs: RcvInputs;
  unit: string;
}) {
  if (assessment.kind !== 'verdict') return null;
  const { change, probabilityReal, riseAbove, fallBelow } = assessment;
  const what = change > 0 ? 'rise' : change < 0 ? 'fall' : 'change';
  const where = inputs.direction === 'one-direction' ? 'in its direction' : 'in either direction';
  return (
    <ul className="list-unstyled" data-testid="rcv-detail">
      <li data-testid="rcv-probability">
        Probability that this {what} is real ({where}):{' '}
        <strong>{formatProbabilityReal(probabilityReal)}</strong>
      </li>
      <li data-testid="rcv-limits">
        At {probabilityInWords(Number(inputs.probability), inputs.direction)}: a 2nd result above{' '}
        {withUnit(formatFixed(riseAbove, 2), unit)} is a real rise ({signed(assessment.up)}); below{' '}
        {withUnit(formatFixed(fallBelow, 2), unit)} a real fall ({signed(assessment.down)}).
      </li>
    </ul>
  );
}

/**
 * "Application of the RCV": is the change between two results beyond the RCV in its direction
 * (assessChange, docs/decisions/006)? In a modal it takes the modal's inputs; on its own page it has
 * its own.
 */
export function RcvApplication({
  inputs: shared,
  initialCvi,
  initialCva,
  titled = true,
  findByCode = false,
}: {
  inputs?: RcvInputs;
  initialCvi?: number | null;
  initialCva?: number | null;
  /** false on its own page, whose h1 is already "Application of the RCV" (issue 27.10). */
  titled?: boolean;
  /** On its own page: the CVI may be looked up by a laboratory's test code (issue 45.7). */
  findByCode?: boolean;
}) {
  const id = useId();
  const own = useRcvInputs({ initialCvi, initialCva });
  const inputs = shared ?? own;
  const [first, setFirst] = useState('');
  const [second, setSecond] = useState('');
  // Each result may be the mean of several (issue 32.6, Fraser 2011); the unit is only for display.
  const [n1, setN1] = useState('1');
  const [n2, setN2] = useState('1');
  const [unit, setUnit] = useState('');
  const r1 = toNumberOrZero(first);
  const r2 = toNumberOrZero(second);
  const change = percentChange(r1, r2);
  const cviN = cviOf(inputs);
  const cvaN = cvOf(inputs.cva);
  const counts = [enteredNumber(n1), enteredNumber(n2)];
  // The curve follows the counts once they are usable (else single results, as the verdict asks).
  const [c1, c2] = counts.every(
    (n) => n !== null && Number.isInteger(n) && n >= 1 && n <= MAX_RESULTS_AVERAGED,
  )
    ? (counts as [number, number])
    : [1, 1];
  const assessment = assessChange({
    first: enteredNumber(first),
    second: enteredNumber(second),
    cvi: inputs.cviExact ?? enteredNumber(inputs.cvi),
    cva: cvaN,
    probability: Number(inputs.probability),
    direction: inputs.direction,
    n1: enteredNumber(n1) ?? Number.NaN,
    n2: enteredNumber(n2) ?? Number.NaN,
  });
  return (
    <section aria-labelledby={titled ? `${id}-title` : undefined}>
      {titled ? (
        <h2 id={`${id}-title`} className="h5">
          Application of the RCV
        </h2>
      ) : null}
      {findByCode && !shared ? <CviByCode onCvi={(cvi) => inputs.takeCvi(cvi)} /> : null}
      {shared ? null : <RcvInputsCard inputs={inputs} showCi={false} />}
      <div className="row g-3 mb-3">
        <NumberFields
          idPrefix={id}
          className="col-6 col-md-3"
          fields={[
            { name: 'r1', label: '1st Result', value: first, onChange: setFirst },
            { name: 'r2', label: '2nd Result', value: second, onChange: setSecond },
          ]}
        />
        <NumberFields
          idPrefix={id}
          className="col-6 col-md-2"
          step={1}
          fields={[
            { name: 'n1', label: 'Results averaged (1st)', value: n1, onChange: setN1, min: 1 },
            { name: 'n2', label: 'Results averaged (2nd)', value: n2, onChange: setN2, min: 1 },
          ]}
        />
        <Form.Group className="col-12 col-md-2" controlId={`${id}-unit`}>
          <Form.Label>Unit (optional)</Form.Label>
          <Form.Control value={unit} maxLength={20} onChange={(e) => setUnit(e.target.value)} />
        </Form.Group>
        <Form.Text className="col-12 mt-1">
          A result may be the mean of up to {MAX_RESULTS_AVERAGED} results, each from its own sample: the RCV
          then narrows by √(1/n₁ + 1/n₂) instead of √2 (Fraser, Clin Chem Lab Med 2011;50:807-12).
        </Form.Text>
      </div>
      {cvaN === 0 ? <Alert variant="danger">{CVA_ZERO_ALERT}</Alert> : null}
      <Table bordered size="sm">
        <caption className="caption-top">Change between the two results</caption>
        <thead>
          <HeaderRow names={['Result 1', 'Result 2', '% Change']} />
        </thead>
        <tbody>
          <tr>
            <td>{withUnit(formatFixed(r1, 2), unit)}</td>
            <td>{withUnit(formatFixed(r2, 2), unit)}</td>
            <td data-testid="percent-change">{formatFixed(change, 1)}%</td>
          </tr>
        </tbody>
      </Table>
      <Verdict assessment={assessment} inputs={inputs} />
      <ChangeDetail assessment={assessment} inputs={inputs} unit={unit} />
      {cviN > 0 ? (
        <>
          {cvaN === 0 ? (
            <p className="h6 mb-1" data-testid="rcv-curve-title">
              RCV without analytical variation
            </p>
          ) : null}
          <Suspense fallback={<Loading />}>
            <RcvChart
              curve={rcvModellingCurve(cviN, cvaN, c1, c2)}
              percentChange={
                assessment.kind === 'verdict' || assessment.kind === 'without-cva' ? assessment.change : null
              }
              withoutCva={cvaN === 0}
            />
          </Suspense>
          <RcvCurveTable curve={rcvModellingCurve(cviN, cvaN, c1, c2)} withoutCva={cvaN === 0} />
        </>
      ) : null}
    </section>
  );
}
