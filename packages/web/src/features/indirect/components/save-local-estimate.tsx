import type { IndirectResponse } from '@bvdb/contract';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { ApiError } from '../../../lib/api-client';
import { useCreateLocalEstimate } from '../api/local-estimates';
import { methodName } from './report-csv';

/**
 * A curator keeps the summary of the run (never its rows) as a local estimate of the measurand,
 * evidence class "routine data (indirect)": shown apart on the measurand page (decision 095).
 */
export function SaveLocalEstimate({ r, measurandId }: { r: IndirectResponse; measurandId: number }) {
  const save = useCreateLocalEstimate(measurandId);
  const withCvi = r.all.methods.filter((m) => m.cvi !== null);
  const [method, setMethod] = useState(withCvi[0]?.method ?? 'result_ratio');
  const [laboratory, setLaboratory] = useState('');
  const [period, setPeriod] = useState('');
  if (withCvi.length === 0 || r.options.cva === null) return null;
  const m = withCvi.find((x) => x.method === method) ?? withCvi[0]!;
  const submit = (ev: React.FormEvent) => {
    ev.preventDefault();
    save.mutate({
      laboratory,
      matrix_id: r.published?.matrix_id ?? null,
      method: m.method,
      cv_total: m.cv_total,
      cva: r.options.cva!,
      cvi: m.cvi!,
      cvi_lower: m.cvi_interval?.low ?? null,
      cvi_upper: m.cvi_interval?.high ?? null,
      pairs: m.pairs_used,
      patients: r.all.pairing.patients,
      results: r.all.pairing.results,
      min_days: r.options.min_days,
      max_days: r.options.max_days,
      pairs_per_patient: r.options.pairs,
      ...(period.trim() ? { period: period.trim() } : {}),
    });
  };
  return (
    <Form onSubmit={submit} className="border rounded p-2 w-100" aria-label="Save as a local estimate">
      <p className="small mb-2">
        Save the summary (never the rows) as a local estimate of this measurand, evidence class “routine data
        (indirect)”: shown apart on its page, never part of the meta-analysis.
      </p>
      <div className="row g-2 align-items-end">
        <Form.Group className="col-12 col-md-4" controlId="local-laboratory">
          <Form.Label className="small">Laboratory</Form.Label>
          <Form.Control
            size="sm"
            required
            value={laboratory}
            onChange={(e) => setLaboratory(e.target.value)}
          />
        </Form.Group>
        <Form.Group className="col-6 col-md-3" controlId="local-period">
          <Form.Label className="small">Period</Form.Label>
          <Form.Control
            size="sm"
            placeholder="2023–2024"
            value={period}
            onChange={(e) => setPeriod(e.target.value)}
          />
        </Form.Group>
        <Form.Group className="col-6 col-md-3" controlId="local-method">
          <Form.Label className="small">Method</Form.Label>
          <Form.Select
            size="sm"
            value={m.method}
            onChange={(e) => setMethod(e.target.value as typeof method)}
          >
            {withCvi.map((x) => (
              <option key={x.method} value={x.method}>
                {methodName(x.method)}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <div className="col-12 col-md-2">
          <Button type="submit" size="sm" disabled={save.isPending || !laboratory.trim()}>
            Save
          </Button>
        </div>
      </div>
      {save.isSuccess ? (
        <Alert variant="success" className="mt-2 mb-0 py-1 small">
          Saved as a local estimate of the measurand.
        </Alert>
      ) : null}
      {save.error ? (
        <Alert variant="danger" className="mt-2 mb-0 py-1 small">
          {save.error instanceof ApiError ? save.error.message : 'It could not be saved.'}
        </Alert>
      ) : null}
    </Form>
  );
}
