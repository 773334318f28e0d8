import { calculateAps, formatFixed, type ApsLevel, type ApsResult } from '@bvdb/domain';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { toNumberOrZero } from '../number-input';
import type { MatrixEstimate } from '../../../lib/matrix-estimates';
import { ApsRanges } from './aps-ranges';

interface Props {
  /** The measurand's matrices with their medians; without them the calculator starts empty. */
  matrices?: MatrixEstimate[];
  /** The matrix chosen at first: the headline matrix (decision 007). */
  defaultKey?: string | null;
}

const start = (v: number | null | undefined) => (v === null || v === undefined ? '' : formatFixed(v, 1));

const LEVELS: [string, keyof ApsResult][] = [
  ['Optimal', 'optimal'],
  ['Desirable', 'desirable'],
  ['Minimum', 'minimum'],
];

const COLUMNS: [string, keyof ApsLevel][] = [
  ['CVa (%)', 'imprecision'],
  ['Bias (%)', 'bias'],
  ['MAU (%, k = 2)', 'mau'],
  ['TE (%)', 'totalError'],
];

/** The line under the results while CVG is 0 (issue 27.5): the spec's cells stay, this says what they miss. */
export const APS_NO_CVG_NOTE = 'Bias and TE need a CVG: with CVG 0 they understate the specification.';

const matrixLabel = (m: MatrixEstimate) =>
  `${m.matrix} (CVI ${m.cvi === null ? 'none' : formatFixed(m.cvi, 1)}, CVG ${m.cvg === null ? 'none' : formatFixed(m.cvg, 1)})`;

/** What a Calculate press computed, kept as it was until an input changes. */
interface Shown {
  cvi: number;
  cvg: number;
  /** The chosen matrix, when its CVG estimate is missing (CVG 0 then went into Bias and TE). */
  noCvgMatrix: string | null;
  /** The matrix whose database estimates were calculated unchanged (their ranges are shown), or null. */
  fromEstimates: MatrixEstimate | null;
}

/** Whether the calculated inputs are the matrix's medians as the calculator started them. */
const unchanged = (m: MatrixEstimate | undefined, cvi: number, cvg: number): m is MatrixEstimate =>
  m !== undefined && m.cviEstimate !== null && m.cvi === cvi && (m.cvg === null ? cvg === 0 : m.cvg === cvg);

/**
 * The number a box stands for: the estimate unrounded while the box holds it as prefilled (1 decimal,
 * spec section 4), so the dialog computes from the same number as the specifications table, the
 * menu and the files (issue 42.5, docs/decisions/084); otherwise what was typed (spec: a
 * non-number is 0).
 */
const valueOf = (text: string, estimate: number | null | undefined): number =>
  estimate != null && text.trim() === start(estimate) ? estimate : toNumberOrZero(text);

/**
 * Analytical performance specifications from CVI and CVG (Fraser et al., Ann Clin Biochem
 * 1997;34:8-12; MAU: Sandberg et al., CCLM 2024;62:1483-9). On a measurand it starts from the
 * headline matrix's medians at 1 decimal and lets the user choose another matrix; results appear on
 * Calculate and hide again when an input changes (spec section 4). An empty input is not flagged
 * as 0 until the user calculates (issue 16.6); typed text that is not a number is flagged at once.
 */
export function ApsCalculator({ matrices = [], defaultKey = null }: Props) {
  const initial = matrices.find((m) => m.key === defaultKey) ?? matrices[0];
  const [matrixKey, setMatrixKey] = useState(initial?.key ?? '');
  const [cviText, setCviText] = useState(start(initial?.cvi));
  const [cvgText, setCvgText] = useState(start(initial?.cvg));
  const [calculated, setCalculated] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const id = useId();
  const matrix = matrices.find((m) => m.key === matrixKey);
  const cvi = valueOf(cviText, matrix?.cvi);
  const cvg = valueOf(cvgText, matrix?.cvg);
  const warnCvi = cvi === 0 && (calculated || cviText.trim() !== '');
  const warnCvg = cvg === 0 && (calculated || cvgText.trim() !== '');
  const edit = (set: (v: string) => void) => (value: string) => {
    set(value);
    setShown(null);
  };
  const aps = shown ? calculateAps(Math.max(shown.cvi, 0), Math.max(shown.cvg, 0)) : null;
  const noteId = `${id}-no-cvg`;
  return (
    <div>
      <Form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setCalculated(true);
          // Nothing entered at all: the warnings say so, there is nothing to show.
          if (cvi === 0 && cvg === 0) return setShown(null);
          setShown({
            cvi,
            cvg,
            noCvgMatrix: matrix && matrix.cvg === null && cvg === 0 ? matrix.matrix : null,
            fromEstimates: unchanged(matrix, cvi, cvg) ? matrix : null,
          });
        }}
        className="row g-3 align-items-start"
      >
        {matrices.length > 0 ? (
          <Form.Group className="col-12" controlId={`${id}-matrix`}>
            <Form.Label>Matrix</Form.Label>
            <Form.Select
              value={matrixKey}
              onChange={(e) => {
                const next = matrices.find((m) => m.key === e.target.value);
                setMatrixKey(e.target.value);
                setCviText(start(next?.cvi));
                setCvgText(start(next?.cvg));
                setShown(null);
              }}
            >
              {matrices.map((m) => (
                <option key={m.key} value={m.key}>
                  {matrixLabel(m)}
                </option>
              ))}
            </Form.Select>
            {matrix && matrix.cvg === null ? (
              <Form.Text>No CVG estimate for {matrix.matrix}.</Form.Text>
            ) : null}
          </Form.Group>
        ) : null}
        <Form.Group className="col-sm-5" controlId={`${id}-cvi`}>
          <Form.Label>% Within-subject (CVI)</Form.Label>
          <Form.Control
            inputMode="decimal"
            value={cviText}
            isInvalid={warnCvi}
            onChange={(e) => edit(setCviText)(e.target.value)}
          />
          {warnCvi ? <Form.Control.Feedback type="invalid">Note CVI is 0</Form.Control.Feedback> : null}
          {matrix?.cvi != null && cvi === matrix.cvi ? (
            <Form.Text data-testid="aps-cvi-exact">
              Computed with the estimate unrounded ({String(matrix.cvi)}), as the tables and the menu are.
            </Form.Text>
          ) : null}
        </Form.Group>
        <Form.Group className="col-sm-5" controlId={`${id}-cvg`}>
          <Form.Label>% Between-subject (CVG)</Form.Label>
          <Form.Control
            inputMode="decimal"
            value={cvgText}
            isInvalid={warnCvg}
            onChange={(e) => edit(setCvgText)(e.target.value)}
          />
          {warnCvg ? <Form.Control.Feedback type="invalid">Note CVG is 0</Form.Control.Feedback> : null}
        </Form.Group>
        <div className="col-sm-2 align-self-sm-end">
          <Button type="submit">Calculate</Button>
        </div>
      </Form>
      {shown && aps ? (
        <Card className="mt-3" aria-live="polite">
          <Card.Header as="h3" className="h6">
            Results
          </Card.Header>
          <Card.Body>
            <Table bordered size="sm" className="mb-2">
              <caption className="caption-top">
                Analytical performance specifications (%) for CVI {formatFixed(shown.cvi, 1)} and CVG{' '}
                {formatFixed(shown.cvg, 1)}
                {matrix ? ` (${matrix.matrix})` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Level</th>
                  {COLUMNS.map(([label, key]) => {
                    const flagged = shown.cvg === 0 && (key === 'bias' || key === 'totalError');
                    return (
                      <th key={key} scope="col" aria-describedby={flagged ? noteId : undefined}>
                        {label}
                        {flagged ? (
                          <span className="text-danger" aria-hidden="true">
                            {' '}
                            *
                          </span>
                        ) : null}
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {LEVELS.map(([label, level]) => (
                  <tr key={level} data-testid={`aps-row-${level}`}>
                    {/* A plain cell as the live table has (scripts read the rows as <td>s), a row header to assistive technology (issue 27.2). */}
                    <td role="rowheader">{label}</td>
                    {COLUMNS.map(([, key]) => (
                      <td key={key} data-testid={`aps-${level}-${key}`}>
                        {formatFixed(aps[level][key], 1)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </Table>
            {shown.fromEstimates?.cviEstimate ? (
              <ApsRanges cvi={shown.fromEstimates.cviEstimate} cvg={shown.fromEstimates.cvgEstimate} />
            ) : null}
            {shown.cvg === 0 ? (
              <p className="small text-danger mb-2" id={noteId} data-testid="aps-no-cvg">
                <span aria-hidden="true">* </span>
                {shown.noCvgMatrix !== null ? `No CVG estimate for ${shown.noCvgMatrix}. ` : ''}
                {APS_NO_CVG_NOTE}
              </p>
            ) : null}
            <p className="small text-muted mb-0">
              All values in %. CVa: allowable imprecision, 0.25/0.5/0.75·CVI (optimal/desirable/minimum).
              Bias: allowable bias, 0.125/0.25/0.375·√(CVI²+CVG²). MAU: maximum allowable expanded measurement
              uncertainty (coverage factor k = 2), 0.5/1/1.5·CVI. TE: allowable total error, Bias + 1.65 ×
              CVa. Sources: Fraser CG et al., Ann Clin Biochem 1997;34:8-12; Sandberg S et al., Clin Chem Lab
              Med 2024;62:1483-9.
            </p>
          </Card.Body>
        </Card>
      ) : null}
    </div>
  );
}
