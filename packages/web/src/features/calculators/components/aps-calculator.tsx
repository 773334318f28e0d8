import { calculateAps, formatFixed, type ApsLevel } from '@bvdb/domain';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { toNumberOrZero } from '../number-input';
import { HeaderRow } from '../../../components/header-row';

interface Props {
  initialCvi?: number | null;
  initialCvg?: number | null;
}

const start = (v: number | null | undefined) => (v === null || v === undefined ? '' : formatFixed(v, 1));

/**
 * Analytical performance specifications from CVI and CVG (Fraser et al., Ann Clin Biochem
 * 1997;34:8-12). Starts from the meta medians rounded to 1 decimal; results appear on Calculate
 * and hide again when an input changes (spec section 4).
 */
export function ApsCalculator({ initialCvi, initialCvg }: Props) {
  const [cviText, setCviText] = useState(start(initialCvi));
  const [cvgText, setCvgText] = useState(start(initialCvg));
  const [shown, setShown] = useState(false);
  const id = useId();
  const cvi = toNumberOrZero(cviText);
  const cvg = toNumberOrZero(cvgText);
  const aps = calculateAps(Math.max(cvi, 0), Math.max(cvg, 0));
  const rows: [string, keyof ApsLevel][] = [
    ['Imprecision CV (CVA below)', 'imprecision'],
    ['Bias below', 'bias'],
    ['Total error TE', 'totalError'],
    ['Allowable uncertainty MAu', 'mau'],
  ];
  return (
    <div>
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          setShown(true);
        }}
        className="row g-3 align-items-end"
      >
        <Form.Group className="col-sm-4" controlId={`${id}-cvi`}>
          <Form.Label>% within-subject (CVI)</Form.Label>
          <Form.Control
            inputMode="decimal"
            value={cviText}
            isInvalid={cvi === 0}
            onChange={(e) => {
              setCviText(e.target.value);
              setShown(false);
            }}
          />
          {cvi === 0 ? <Form.Control.Feedback type="invalid">Note CVI is 0</Form.Control.Feedback> : null}
        </Form.Group>
        <Form.Group className="col-sm-4" controlId={`${id}-cvg`}>
          <Form.Label>% between-subject (CVG)</Form.Label>
          <Form.Control
            inputMode="decimal"
            value={cvgText}
            isInvalid={cvg === 0}
            onChange={(e) => {
              setCvgText(e.target.value);
              setShown(false);
            }}
          />
          {cvg === 0 ? <Form.Control.Feedback type="invalid">Note CVG is 0</Form.Control.Feedback> : null}
        </Form.Group>
        <div className="col-sm-4">
          <Button type="submit">Calculate</Button>
        </div>
      </Form>
      {shown ? (
        <Card className="mt-3" aria-live="polite">
          <Card.Header as="h3" className="h6">
            Results
          </Card.Header>
          <Card.Body>
            <Table bordered size="sm" className="mb-2">
              <caption className="caption-top">
                Analytical performance specifications for CVI {formatFixed(cvi, 1)}% and CVG{' '}
                {formatFixed(cvg, 1)}%
              </caption>
              <thead>
                <HeaderRow names={['Measure', 'Minimum', 'Desirable', 'Optimal']} />
              </thead>
              <tbody>
                {rows.map(([label, key]) => (
                  <tr key={key}>
                    <th scope="row">{label}</th>
                    <td data-testid={`aps-minimum-${key}`}>{formatFixed(aps.minimum[key], 1)}%</td>
                    <td data-testid={`aps-desirable-${key}`}>{formatFixed(aps.desirable[key], 1)}%</td>
                    <td data-testid={`aps-optimal-${key}`}>{formatFixed(aps.optimal[key], 1)}%</td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <p className="small text-muted mb-0">
              Imprecision 0.75/0.5/0.25·CVI; bias 0.375/0.25/0.125·√(CVI²+CVG²); TE = bias + 1.65 × CV; MAu
              1.5/1/0.5·CVI (minimum/desirable/optimal). Sources: Fraser CG et al., Ann Clin Biochem
              1997;34:8-12; Sandberg S et al., Clin Chem Lab Med 2024;62:1483-9.
            </p>
          </Card.Body>
        </Card>
      ) : null}
    </div>
  );
}
