import type { MeasurandCode } from '@bvdb/contract';
import { CODE_SYSTEMS, codeSystemName, codeSystemOf, type CodeSystem } from '@bvdb/domain';
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { ErrorText, Loading } from '../../../components/state-views';
import { ApiError, errorText } from '../../../lib/api-client';
import { useMeasurandCodesToEdit, useUpdateMeasurandCodes } from '../api/update-measurand-codes';

/** A matrix a code may name, as the page passes them (features do not read each other's lists). */
export interface MatrixChoice {
  id: number;
  name: string;
}

interface Row {
  key: number;
  system: CodeSystem;
  code: string;
  display: string;
  matrixId: string;
  unit: string;
  source: string;
}

const SYSTEMS = Object.values(CODE_SYSTEMS);
let nextKey = 1;
const rowOf = (c?: MeasurandCode): Row => ({
  key: nextKey++,
  system: (c && codeSystemOf(c.system)) ?? CODE_SYSTEMS.loinc,
  code: c?.code ?? '',
  display: c?.display ?? '',
  matrixId: c?.matrix_id === null || c?.matrix_id === undefined ? '' : String(c.matrix_id),
  unit: c?.ucum_unit ?? '',
  source: c?.source ?? '',
});

/**
 * A curator's editor of the codes laboratory systems name the measurand by (issue 45.1, decision
 * 093): LOINC, NPU or SNOMED CT, each for a matrix and a unit scale (UCUM) when it names them, with
 * the source that states it. Saved with the version read through the existing PUT: the server's
 * message is shown as it is (a code another measurand has, a LOINC check digit, a change since).
 */
export function MeasurandCodesEditor({
  measurandId,
  matrices,
}: {
  measurandId: number;
  matrices: MatrixChoice[];
}) {
  const codes = useMeasurandCodesToEdit(measurandId);
  const [savedVersion, setSavedVersion] = useState<number | null>(null);
  if (codes.isPending) return <Loading />;
  if (codes.error) return <ErrorText>Error loading the codes: {errorText(codes.error)}</ErrorText>;
  return (
    <CodesForm
      key={codes.data.version}
      measurandId={measurandId}
      version={codes.data.version}
      initial={codes.data.codes}
      matrices={matrices}
      saved={savedVersion === codes.data.version}
      onSaved={setSavedVersion}
    />
  );
}

function CodesForm(props: {
  measurandId: number;
  version: number;
  initial: MeasurandCode[];
  matrices: MatrixChoice[];
  saved: boolean;
  onSaved: (version: number) => void;
}) {
  const [rows, setRows] = useState<Row[]>(() => props.initial.map(rowOf));
  const update = useUpdateMeasurandCodes(props.measurandId);
  const change = (key: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    update.mutate(
      {
        version: props.version,
        codes: rows.map((r) => ({
          system: r.system,
          code: r.code.trim(),
          display: r.display.trim() || null,
          matrix_id: r.matrixId === '' ? null : Number(r.matrixId),
          ucum_unit: r.unit.trim() || null,
          source: r.source.trim() || null,
        })),
      },
      { onSuccess: (a) => props.onSaved(a.version) },
    );
  };
  return (
    <Form onSubmit={submit} className="mb-4" aria-labelledby="measurand-codes-heading">
      <h2 className="h5" id="measurand-codes-heading">
        Codes laboratory systems use
      </h2>
      <p className="small text-muted mb-2">
        A code names this measurand, and a matrix and a unit scale when it names them: a code for another
        scale is another code. Say where each is stated. Many at once:{' '}
        <Link to="/measurand_codes/import">import a crosswalk file</Link>.
      </p>
      {rows.length === 0 ? <p className="small">No code yet.</p> : null}
      {rows.map((r, i) => (
        <fieldset key={r.key} className="border rounded p-2 mb-2" data-testid="measurand-code-row">
          <legend className="small fw-semibold float-none w-auto px-1 mb-0">Code {i + 1}</legend>
          <div className="row g-2">
            <Form.Group className="col-6 col-md-2" controlId={`code-${r.key}-system`}>
              <Form.Label className="small mb-0">System</Form.Label>
              <Form.Select
                size="sm"
                value={r.system}
                onChange={(e) => change(r.key, { system: e.target.value as CodeSystem })}
              >
                {SYSTEMS.map((s) => (
                  <option key={s} value={s}>
                    {codeSystemName(s)}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <Form.Group className="col-6 col-md-2" controlId={`code-${r.key}-code`}>
              <Form.Label className="small mb-0">Code</Form.Label>
              <Form.Control
                size="sm"
                value={r.code}
                required
                maxLength={40}
                onChange={(e) => change(r.key, { code: e.target.value })}
              />
            </Form.Group>
            <Form.Group className="col-12 col-md-4" controlId={`code-${r.key}-display`}>
              <Form.Label className="small mb-0">Display (the system’s name)</Form.Label>
              <Form.Control
                size="sm"
                value={r.display}
                maxLength={500}
                onChange={(e) => change(r.key, { display: e.target.value })}
              />
            </Form.Group>
            <Form.Group className="col-6 col-md-2" controlId={`code-${r.key}-matrix`}>
              <Form.Label className="small mb-0">Matrix</Form.Label>
              <Form.Select
                size="sm"
                value={r.matrixId}
                onChange={(e) => change(r.key, { matrixId: e.target.value })}
              >
                <option value="">(none named)</option>
                {props.matrices.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <Form.Group className="col-6 col-md-2" controlId={`code-${r.key}-unit`}>
              <Form.Label className="small mb-0">UCUM unit</Form.Label>
              <Form.Control
                size="sm"
                value={r.unit}
                maxLength={60}
                placeholder="e.g. mmol/L"
                onChange={(e) => change(r.key, { unit: e.target.value })}
              />
            </Form.Group>
            <Form.Group className="col-12 col-md-10" controlId={`code-${r.key}-source`}>
              <Form.Label className="small mb-0">Source (where the code is stated)</Form.Label>
              <Form.Control
                size="sm"
                value={r.source}
                maxLength={1000}
                onChange={(e) => change(r.key, { source: e.target.value })}
              />
            </Form.Group>
            <div className="col-12 col-md-2 d-flex align-items-end">
              <Button
                size="sm"
                variant="outline-danger"
                onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
              >
                Remove code {i + 1}
              </Button>
            </div>
          </div>
        </fieldset>
      ))}
      {update.error ? (
        <Alert variant="danger" role="alert" className="py-2">
          {update.error instanceof ApiError ? update.error.message : errorText(update.error)}
        </Alert>
      ) : null}
      {props.saved && !update.error ? (
        <p role="status" className="small text-success mb-2">
          Saved.
        </p>
      ) : null}
      <div className="d-flex flex-wrap gap-2">
        <Button size="sm" variant="outline-primary" onClick={() => setRows((rs) => [...rs, rowOf()])}>
          Add a code
        </Button>
        <Button type="submit" size="sm" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save codes'}
        </Button>
      </div>
    </Form>
  );
}
