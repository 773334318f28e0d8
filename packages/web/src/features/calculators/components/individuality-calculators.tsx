import {
  describeResultsReading,
  DomainInputError,
  formatFixed,
  indexOfIndividuality,
  indexOfIndividualityWithCva,
  personalisedReferenceInterval,
  readResultsList,
  samplesForSetPoint,
} from '@bvdb/domain';
import { useId, useState, type ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { toNumberOrZero } from '../number-input';
import { NumberField, NumberFields } from './number-field';

function attempt<T>(fn: () => T): { value: T; error: null } | { value: null; error: string } {
  try {
    return { value: fn(), error: null };
  } catch (e) {
    return { value: null, error: e instanceof DomainInputError ? e.message : 'Invalid input' };
  }
}

interface Props {
  initialCvi?: number | null;
  initialCvg?: number | null;
}

/** Index of individuality, samples for a set point, and a personalised reference interval. */
export function IndividualityCalculators({ initialCvi, initialCvg }: Props) {
  const id = useId();
  const [cvi, setCvi] = useState(initialCvi != null ? formatFixed(initialCvi, 1) : '');
  const [cvg, setCvg] = useState(initialCvg != null ? formatFixed(initialCvg, 1) : '');
  const [cva, setCva] = useState('2');
  const [d, setD] = useState('5');
  const [results, setResults] = useState('');
  const cviN = toNumberOrZero(cvi);
  const cvgN = toNumberOrZero(cvg);
  const cvaN = toNumberOrZero(cva);
  // Nothing is judged before it is entered: no "CVG must be greater than 0" or "1 sample" on an
  // empty form, only what is still missing.
  const hasCvi = cvi.trim() !== '';
  const hasCvg = cvg.trim() !== '';
  const ii = !hasCvi || !hasCvg ? null : attempt(() => indexOfIndividuality(cviN, cvgN));
  const iiWithCva = !hasCvi || !hasCvg ? null : attempt(() => indexOfIndividualityWithCva(cviN, cvaN, cvgN));
  const n = !hasCvi
    ? null
    : attempt(() =>
        samplesForSetPoint({
          cvi: cviN,
          cva: cvaN,
          percentFromSetPoint: toNumberOrZero(d),
          z: 1.959963984540054,
        }),
      );
  const reading = results.trim() === '' ? null : readResultsList(results);
  const pri =
    reading === null || !reading.ok || !hasCvi
      ? null
      : attempt(() => personalisedReferenceInterval({ results: reading.values, cvi: cviN, cva: cvaN }));
  return (
    <div className="row g-3">
      <div className="col-12 row g-3">
        <NumberFields
          idPrefix={id}
          className="col-4"
          fields={[
            { name: 'cvi', label: 'CVI (%)', min: 0, value: cvi, onChange: setCvi },
            { name: 'cvg', label: 'CVG (%)', min: 0, value: cvg, onChange: setCvg },
            { name: 'cva', label: 'CVA (%)', min: 0, value: cva, onChange: setCva },
          ]}
        />
      </div>
      <CalculatorCard title="Index of individuality">
        {ii === null ? (
          <Missing testId="ii">
            {!hasCvi && !hasCvg
              ? 'Enter the CVI and the CVG.'
              : !hasCvi
                ? 'Enter the CVI.'
                : 'Enter the CVG.'}
          </Missing>
        ) : (
          <div className="row g-2">
            <div className="col-6">
              <p className="small mb-0" id={`${id}-ii-label`}>
                II = CVI / CVG
              </p>
              <Answer testId="ii" error={ii.error} labelledBy={`${id}-ii-label`}>
                {ii.value !== null ? <>{formatFixed(ii.value, 2)}</> : null}
              </Answer>
            </div>
            <div className="col-6">
              <p className="small mb-0" id={`${id}-ii-cva-label`}>
                II with CVA = √(CVI² + CVA²) / CVG
              </p>
              <Answer testId="ii-cva" error={iiWithCva?.error ?? null} labelledBy={`${id}-ii-cva-label`}>
                {iiWithCva?.value != null ? <>{formatFixed(iiWithCva.value, 2)}</> : null}
              </Answer>
            </div>
          </div>
        )}
        {ii?.value != null ? (
          <p className="small">
            {ii.value < 0.6
              ? 'Below 0.6: a population reference interval is of little use to detect a change in one person; use the RCV.'
              : ii.value > 1.4
                ? 'Above 1.4: a population reference interval is useful.'
                : 'Between 0.6 and 1.4: population reference intervals are of limited use.'}
          </p>
        ) : null}
        <p className="small text-muted mb-0">
          II = CVI / CVG (Harris EK, Clin Chem 1974;20:1535-42); II with CVA = √(CVI² + CVA²) / CVG, what
          results of a method with that CVA show (Fraser CG, Harris EK, Crit Rev Clin Lab Sci 1989;27:409-37).
        </p>
      </CalculatorCard>
      <CalculatorCard title="Samples to estimate the set point">
        <NumberField
          className="mb-2"
          controlId={`${id}-d`}
          label="Within ±D % of the set point"
          min={0}
          step={0.5}
          value={d}
          onChange={setD}
        />
        {n === null ? (
          <Missing testId="set-point-samples">Enter the CVI.</Missing>
        ) : (
          <Answer testId="set-point-samples" error={n.error}>
            {n.value !== null ? (
              <>
                {n.value} sample{n.value === 1 ? '' : 's'}
              </>
            ) : null}
          </Answer>
        )}
        <p className="small text-muted mb-0">
          n = ⌈(z·√(CVA²+CVI²)/D)²⌉, z = 1.96 (Fraser CG, Harris EK, Crit Rev Clin Lab Sci 1989;27:409-37).
        </p>
      </CalculatorCard>
      <CalculatorCard title="Personalised reference interval">
        <Form.Group controlId={`${id}-results`} className="mb-2">
          <Form.Label>Previous results of the person</Form.Label>
          <Form.Control
            as="textarea"
            rows={2}
            value={results}
            aria-describedby={`${id}-results-help ${id}-results-read`}
            onChange={(e) => setResults(e.target.value)}
          />
          <Form.Text id={`${id}-results-help`}>
            Separated by commas, spaces, semicolons or lines, e.g. 78, 82, 80 or 78 82 80; decimal commas such
            as 78,5; 80,1 are read as 78.5 and 80.1.
          </Form.Text>
        </Form.Group>
        <p
          id={`${id}-results-read`}
          className={`small ${reading !== null && !reading.ok ? 'text-danger' : 'text-muted'}`}
          data-testid="results-reading"
          aria-live="polite"
        >
          {reading === null ? '' : reading.ok ? `${describeResultsReading(reading)}.` : reading.message}
        </p>
        {reading?.ok && !hasCvi ? <Missing testId="pri">Enter the CVI.</Missing> : null}
        {pri === null ? null : pri.error !== null ? (
          <p className="text-danger">{pri.error}</p>
        ) : (
          <ul className="list-unstyled mb-1" data-testid="pri">
            {pri.value.map((i) => (
              <li key={i.model}>
                {i.model === 'population-cvi' ? 'With the database CVI' : "With the person's own SD"}:{' '}
                {formatFixed(i.lower, 2)} – {formatFixed(i.upper, 2)}
              </li>
            ))}
          </ul>
        )}
        <p className="small text-muted mb-0">
          95% prediction interval around the mean of the results: mean ± z·mean·√(CVA²+CVI²)·√(1+1/n); from 5
          results also mean ± t·SD·√(1+1/n) (Coskun A et al., Clin Chem 2021;67:374-84; Clin Chem Lab Med
          2022;60:629-35).
        </p>
      </CalculatorCard>
    </div>
  );
}

function CalculatorCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="col-md-4">
      <Card className="h-100">
        <Card.Body>
          <Card.Title as="h3" className="h6">
            {title}
          </Card.Title>
          {children}
        </Card.Body>
      </Card>
    </div>
  );
}

/** What the user still has to enter before there is an answer (not an error). */
function Missing({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p className="text-muted small" data-testid={testId}>
      {children}
    </p>
  );
}

/** The calculated answer, or why there is none. */
function Answer({
  testId,
  error,
  children,
  labelledBy,
}: {
  testId: string;
  error: string | null;
  children: ReactNode;
  labelledBy?: string;
}) {
  return error !== null ? (
    <p className="text-danger small" data-testid={testId} aria-describedby={labelledBy}>
      {error}
    </p>
  ) : (
    <p className="fs-4 mb-1" data-testid={testId} aria-describedby={labelledBy}>
      {children}
    </p>
  );
}
