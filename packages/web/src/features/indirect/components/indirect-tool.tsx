import { INDIRECT_METHOD_NAMES, type IndirectMethodName } from '@bvdb/contract';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { isStaff, useSession } from '../../../lib/session';
import {
  useCreateIndirectEstimate,
  type IndirectFormOptions,
  type IndirectRequest,
} from '../api/create-indirect-estimate';
import { IndirectReport } from './indirect-report';
import { methodName } from './report-csv';
import { SaveLocalEstimate } from './save-local-estimate';

const DEFAULTS: IndirectFormOptions = {
  measurand: '',
  minDays: 1,
  maxDays: 30,
  pairs: 'all',
  firstLow: '',
  firstHigh: '',
  methods: [...INDIRECT_METHOD_NAMES],
  cva: '',
  probability: 0.95,
};

/** Upload and options, then the report (issue 46): the form works once the page is hydrated. */
export function IndirectTool() {
  const session = useSession();
  const [params] = useSearchParams();
  const estimate = useCreateIndirectEstimate(session.csrf_token);
  const [file, setFile] = useState<File | null>(null);
  const [o, setO] = useState<IndirectFormOptions>({ ...DEFAULTS, measurand: params.get('measurand') ?? '' });
  const [sent, setSent] = useState<IndirectRequest | null>(null);

  const submit = (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!file) return;
    const req = { file, options: o };
    setSent(req);
    estimate.mutate(req);
  };
  const toggle = (m: IndirectMethodName, on: boolean) =>
    setO({ ...o, methods: INDIRECT_METHOD_NAMES.filter((x) => (x === m ? on : o.methods.includes(x))) });
  const r = estimate.data;
  return (
    <>
      <Form
        onSubmit={submit}
        className="d-print-none"
        aria-label="Estimate biological variation from routine results"
      >
        <Form.Group className="mb-3" controlId="indirect-file">
          <Form.Label>Extract (CSV, TSV or .xlsx; at most 1,000,000 rows)</Form.Label>
          <Form.Control
            type="file"
            accept=".csv,.tsv,.txt,.xlsx,text/csv,text/tab-separated-values"
            onChange={(ev) => setFile((ev.target as HTMLInputElement).files?.[0] ?? null)}
          />
        </Form.Group>
        <div className="row g-2 mb-3 align-items-end">
          <Form.Group className="col-12 col-md-6" controlId="indirect-measurand">
            <Form.Label className="small">
              Measurand: its bvdb id or a code (e.g. http://loinc.org|2951-2)
            </Form.Label>
            <Form.Control
              size="sm"
              value={o.measurand}
              onChange={(e) => setO({ ...o, measurand: e.target.value })}
            />
          </Form.Group>
          <Form.Group className="col-6 col-md-3" controlId="indirect-cva">
            <Form.Label className="small">Your CVA, % (for a CVI)</Form.Label>
            <Form.Control
              size="sm"
              type="number"
              step="any"
              min="0"
              value={o.cva}
              onChange={(e) => setO({ ...o, cva: e.target.value })}
            />
          </Form.Group>
          <Form.Group className="col-6 col-md-3" controlId="indirect-probability">
            <Form.Label className="small">RCV probability (two-sided)</Form.Label>
            <Form.Select
              size="sm"
              value={o.probability}
              onChange={(e) => setO({ ...o, probability: Number(e.target.value) })}
            >
              <option value={0.9}>90 %</option>
              <option value={0.95}>95 %</option>
              <option value={0.99}>99 %</option>
            </Form.Select>
          </Form.Group>
        </div>
        <fieldset className="mb-3">
          <legend className="h6">Pairs</legend>
          <div className="row g-2 align-items-end">
            <Form.Group className="col-6 col-md-2" controlId="indirect-min-days">
              <Form.Label className="small">From (days)</Form.Label>
              <Form.Control
                size="sm"
                type="number"
                min="0"
                value={o.minDays}
                onChange={(e) => setO({ ...o, minDays: Number(e.target.value) })}
              />
            </Form.Group>
            <Form.Group className="col-6 col-md-2" controlId="indirect-max-days">
              <Form.Label className="small">To (days)</Form.Label>
              <Form.Control
                size="sm"
                type="number"
                min="1"
                value={o.maxDays}
                onChange={(e) => setO({ ...o, maxDays: Number(e.target.value) })}
              />
            </Form.Group>
            <Form.Group className="col-12 col-md-3" controlId="indirect-pairs">
              <Form.Label className="small">Pairs per patient</Form.Label>
              <Form.Select
                size="sm"
                value={o.pairs}
                onChange={(e) => setO({ ...o, pairs: e.target.value as 'one' | 'all' })}
              >
                <option value="all">all consecutive pairs</option>
                <option value="one">at most one</option>
              </Form.Select>
            </Form.Group>
            <Form.Group className="col-6 col-md-2" controlId="indirect-first-low">
              <Form.Label className="small">First result from</Form.Label>
              <Form.Control
                size="sm"
                type="number"
                step="any"
                value={o.firstLow}
                onChange={(e) => setO({ ...o, firstLow: e.target.value })}
              />
            </Form.Group>
            <Form.Group className="col-6 col-md-2" controlId="indirect-first-high">
              <Form.Label className="small">to</Form.Label>
              <Form.Control
                size="sm"
                type="number"
                step="any"
                value={o.firstHigh}
                onChange={(e) => setO({ ...o, firstHigh: e.target.value })}
              />
            </Form.Group>
          </div>
        </fieldset>
        <fieldset className="mb-3">
          <legend className="h6">Methods</legend>
          {INDIRECT_METHOD_NAMES.map((m) => (
            <Form.Check
              key={m}
              inline
              id={`indirect-method-${m}`}
              label={methodName(m)}
              checked={o.methods.includes(m)}
              onChange={(e) => toggle(m, e.target.checked)}
            />
          ))}
        </fieldset>
        <Button type="submit" disabled={!file || estimate.isPending || o.methods.length === 0}>
          {estimate.isPending ? 'Estimating…' : 'Estimate'}
        </Button>
      </Form>
      {estimate.error ? (
        <Alert variant="danger" className="mt-3" role="alert">
          {estimate.error instanceof ApiError ? estimate.error.message : 'The estimate failed.'}
        </Alert>
      ) : null}
      {r && sent ? (
        <IndirectReport
          r={r}
          fileName={sent.file.name}
          saveForm={
            isStaff(session) && r.measurand ? <SaveLocalEstimate r={r} measurandId={r.measurand.id} /> : null
          }
        />
      ) : null}
    </>
  );
}
