import { formatFixed, probabilityInWords, zForChange, type ChangeDirection } from '@bvdb/domain';
import { useId } from 'react';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { zOfInputs, type RcvInputs } from '../use-rcv-inputs';

/** z for a direction at the entered probability, for the choice's label ("" when there is none). */
function zLabel(probability: string, direction: ChangeDirection): string {
  try {
    return ` (z ${formatFixed(zForChange(Number(probability), direction), 2)})`;
  } catch {
    return '';
  }
}

/**
 * "Enter Values" (spec section 2): CVI, CVA, the CI of the CVI, the probability (default 0.05), the
 * kind of change (one stated direction → one-sided z, either direction → two-sided z) and the
 * read-only z-value. One card drives every RCV tool of a screen (docs/decisions/006).
 */
export function RcvInputsCard({ inputs, showCi = true }: { inputs: RcvInputs; showCi?: boolean }) {
  const id = useId();
  const { z, error } = zOfInputs(inputs);
  const edit = (field: 'cvi' | 'cva' | 'ci' | 'probability') => (e: { target: { value: string } }) =>
    inputs.set(field, e.target.value);
  return (
    <Card className="mb-3">
      <Card.Header as="h2" className="h6">
        Enter Values
      </Card.Header>
      <Card.Body className="row g-3">
        <Form.Group className="col-sm-6 col-lg-3" controlId={`${id}-cvi`}>
          <Form.Label>CVI (%)</Form.Label>
          <Form.Control type="number" min={0} step={0.1} value={inputs.cvi} onChange={edit('cvi')} />
          {inputs.cviExact !== null ? (
            <Form.Text data-testid="cvi-exact">
              Computed with the estimate unrounded ({String(inputs.cviExact)}), as the tables and the menu
              are.
            </Form.Text>
          ) : null}
        </Form.Group>
        <Form.Group className="col-sm-6 col-lg-3" controlId={`${id}-cva`}>
          <Form.Label>CVA (%)</Form.Label>
          <Form.Control type="number" min={0} step={0.1} value={inputs.cva} onChange={edit('cva')} />
        </Form.Group>
        {showCi ? (
          <Form.Group className="col-sm-6 col-lg-2" controlId={`${id}-ci`}>
            <Form.Label>CI of CVI (±%)</Form.Label>
            <Form.Control type="number" min={0} step={0.1} value={inputs.ci} onChange={edit('ci')} />
          </Form.Group>
        ) : null}
        <Form.Group className="col-sm-6 col-lg-2" controlId={`${id}-p`}>
          <Form.Label>Probability</Form.Label>
          <Form.Control
            type="number"
            min={0}
            max={1}
            step={0.01}
            value={inputs.probability}
            isInvalid={error !== null}
            onChange={edit('probability')}
          />
          <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
          <Form.Text>0.025 gives z 1.96; 0.05 gives 1.64</Form.Text>
        </Form.Group>
        <Form.Group className="col-sm-6 col-lg-2" controlId={`${id}-z`}>
          <Form.Label>z-value</Form.Label>
          <Form.Control readOnly value={z === null ? '' : formatFixed(z, 2)} />
          {z === null ? null : (
            <Form.Text data-testid="probability-words">
              {probabilityInWords(Number(inputs.probability), inputs.direction)}
            </Form.Text>
          )}
        </Form.Group>
        <fieldset className="col-12">
          <legend className="fs-6 mb-1">The change to detect</legend>
          <Form.Check
            inline
            type="radio"
            id={`${id}-one`}
            name={`${id}-direction`}
            label={`One direction${zLabel(inputs.probability, 'one-direction')}`}
            checked={inputs.direction === 'one-direction'}
            onChange={() => inputs.setDirection('one-direction')}
          />
          <Form.Check
            inline
            type="radio"
            id={`${id}-either`}
            name={`${id}-direction`}
            label={`Either direction${zLabel(inputs.probability, 'either-direction')}`}
            checked={inputs.direction === 'either-direction'}
            onChange={() => inputs.setDirection('either-direction')}
          />
          <Form.Text className="d-block">
            One direction: a rise (or a fall) you name before you look, one-sided z. Either direction: any
            change, two-sided z (the probability is halved before the inverse normal).
          </Form.Text>
        </fieldset>
      </Card.Body>
    </Card>
  );
}
