import { ESTIMATION_COLUMNS, type EstimationColumn, type EstimationResponse } from '@bvdb/contract';
import { detectDelimiter } from '@bvdb/domain';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import { ApiError, urlFor } from '../../../lib/api-client';
import { isStaff, useSession } from '../../../lib/session';
import {
  estimationQuery,
  useCreateEstimation,
  type EstimationFormOptions,
  type EstimationRequest,
} from '../api/create-estimation';
import { draftDataset, ESTIMATION_DRAFT_STATE, ESTIMATION_FILE_STATE } from '../draft-dataset';
import { EstimationReport } from './estimation-report';
import { createEstimation } from '@bvdb/contract';

const COLUMN_LABELS: Record<EstimationColumn, string> = {
  subject: 'Subject',
  sample: 'Sample (time point)',
  replicate: 'Replicate',
  value: 'Value',
  group: 'Sex or group',
  date: 'Sample date',
};

/** The header row of a CSV/TSV file, read in the browser so the columns can be mapped (an .xlsx is mapped by name). */
async function headersOf(file: File): Promise<string[] | null> {
  if (/\.xlsx$/i.test(file.name)) return null;
  const head = await file.slice(0, 4096).text();
  const line = head.split(/\r\n|\n|\r/)[0] ?? '';
  // The server's rule, from the content whatever the file is called (issue 42.6).
  const sep = detectDelimiter(head);
  return line
    .split(sep)
    .map((h) => h.trim().replace(/^"|"$/g, ''))
    .filter(Boolean);
}

/** The API's parameter names as this page's own controls (issue 42.6). */
const PARAMETER_LABELS: Record<string, string> = {
  ...Object.fromEntries(ESTIMATION_COLUMNS.map((c) => [`${c}_column`, `the “${COLUMN_LABELS[c]}” list`])),
  alpha: '“α”',
  replicate_outlier: '“An outlying replicate pair removes”',
  sample_outlier: '“Within-subject outliers (Cochran)”',
  reed: '“Subject-mean outliers (Reed)”',
};

/**
 * An API message as the page says it: parameter names become the controls of this page (the API's
 * "map them with subject_column" is "choose the “Subject” list" here), so nobody is sent to look
 * for a name the page does not show.
 */
export function pageMessage(message: string): string {
  return message
    .replace(/\bmap them with\b/g, 'choose them in')
    .replace(
      /\b(subject|sample|replicate|value|group|date)_column\b|\b(alpha|replicate_outlier|sample_outlier|reed)\b/g,
      (m) => PARAMETER_LABELS[m] ?? m,
    )
    .replace(
      /\bThe (subject|sample|replicate|value|group|date) column "/g,
      (_, c: string) => `The column chosen for “${COLUMN_LABELS[c as EstimationColumn]}”, "`,
    );
}

const DEFAULT_OPTIONS: EstimationFormOptions = {
  alpha: 0.05,
  replicate_outlier: 'sample',
  sample_outlier: true,
  reed: true,
  bootstrap: null,
};

/** Upload, column mapping and options, then the report (issue 31 point 3). */
export function EstimationTool() {
  const session = useSession();
  const navigate = useNavigate();
  const estimation = useCreateEstimation(session.csrf_token);
  const [file, setFile] = useState<File | null>(null);
  const [headers, setHeaders] = useState<string[] | null>(null);
  const [mapping, setMapping] = useState<Partial<Record<EstimationColumn, string>>>({});
  const [options, setOptions] = useState<EstimationFormOptions>(DEFAULT_OPTIONS);
  const [sent, setSent] = useState<EstimationRequest | null>(null);
  const [xlsxError, setXlsxError] = useState<string | null>(null);

  const submit = (ev: React.FormEvent) => {
    ev.preventDefault();
    if (!file) return;
    const req = { file, mapping, options };
    setSent(req);
    estimation.mutate(req);
  };

  const downloadXlsx = async () => {
    if (!sent) return;
    setXlsxError(null);
    const form = new FormData();
    form.append('file', sent.file, sent.file.name);
    const res = await fetch(
      urlFor(createEstimation, { query: { ...estimationQuery(sent), format: 'xlsx' } }),
      {
        method: 'POST',
        body: form,
        credentials: 'same-origin',
      },
    );
    if (!res.ok) {
      setXlsxError(`The workbook could not be made (${res.status}).`);
      return;
    }
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `${sent.file.name.replace(/\.[^.]+$/, '')}-report.xlsx`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const report: EstimationResponse | undefined = estimation.data;
  const error = estimation.error;
  return (
    <>
      <Form onSubmit={submit} className="d-print-none" aria-label="Estimate biological variation">
        {/* Its introduction, with the templates, is the page's (estimate-page.tsx), rendered on the server. */}
        <Form.Group className="mb-3" controlId="estimation-file">
          <Form.Label>Results file (CSV, TSV, delimited .txt or .xlsx; at most 10,000 rows)</Form.Label>
          <Form.Control
            type="file"
            accept=".csv,.tsv,.txt,.xlsx,text/csv,text/tab-separated-values"
            onChange={(ev) => {
              const f = (ev.target as HTMLInputElement).files?.[0] ?? null;
              setFile(f);
              setMapping({});
              setHeaders(null);
              if (f) void headersOf(f).then(setHeaders);
            }}
          />
        </Form.Group>
        <fieldset className="mb-3">
          <legend className="h6">Columns</legend>
          <p className="small text-body-secondary">
            Left on “detect”, common names are recognised (participant, visit, result, sex, …).
          </p>
          <div className="row g-2">
            {ESTIMATION_COLUMNS.map((c) => (
              <Form.Group key={c} className="col-6 col-md-4 col-xl-2" controlId={`column-${c}`}>
                <Form.Label className="small">{COLUMN_LABELS[c]}</Form.Label>
                {headers ? (
                  <Form.Select
                    size="sm"
                    value={mapping[c] ?? ''}
                    onChange={(ev) => setMapping({ ...mapping, [c]: ev.target.value })}
                  >
                    <option value="">detect</option>
                    {headers.map((h) => (
                      <option key={h} value={h}>
                        {h}
                      </option>
                    ))}
                  </Form.Select>
                ) : (
                  <Form.Control
                    size="sm"
                    placeholder="detect"
                    value={mapping[c] ?? ''}
                    onChange={(ev) => setMapping({ ...mapping, [c]: ev.target.value })}
                  />
                )}
              </Form.Group>
            ))}
          </div>
        </fieldset>
        <fieldset className="mb-3">
          <legend className="h6">Options</legend>
          <div className="row g-2 align-items-end">
            <Form.Group className="col-6 col-md-3" controlId="estimation-alpha">
              <Form.Label className="small">α (tests; CIs are 1 − α)</Form.Label>
              <Form.Control
                size="sm"
                type="number"
                step="any"
                min="0.001"
                max="0.2"
                value={options.alpha}
                onChange={(ev) => setOptions({ ...options, alpha: Number(ev.target.value) })}
              />
            </Form.Group>
            <Form.Group className="col-6 col-md-3" controlId="estimation-replicate">
              <Form.Label className="small">An outlying replicate pair removes</Form.Label>
              <Form.Select
                size="sm"
                value={options.replicate_outlier}
                onChange={(ev) =>
                  setOptions({
                    ...options,
                    replicate_outlier: ev.target.value as EstimationFormOptions['replicate_outlier'],
                  })
                }
              >
                <option value="sample">that sample</option>
                <option value="subject">the whole subject</option>
                <option value="none">nothing (step off)</option>
              </Form.Select>
            </Form.Group>
            <div className="col-6 col-md-3">
              <Form.Check
                id="estimation-sample-outlier"
                label="Within-subject outliers (Cochran)"
                checked={options.sample_outlier}
                onChange={(ev) => setOptions({ ...options, sample_outlier: ev.target.checked })}
              />
              <Form.Check
                id="estimation-reed"
                label="Subject-mean outliers (Reed)"
                checked={options.reed}
                onChange={(ev) => setOptions({ ...options, reed: ev.target.checked })}
              />
            </div>
            <div className="col-6 col-md-3">
              <Form.Check
                id="estimation-bootstrap"
                label="Bootstrap CIs (1,000, seed 1)"
                checked={options.bootstrap !== null}
                onChange={(ev) =>
                  setOptions({
                    ...options,
                    bootstrap: ev.target.checked ? { replicates: 1000, seed: 1 } : null,
                  })
                }
              />
            </div>
          </div>
        </fieldset>
        <Button type="submit" disabled={!file || estimation.isPending}>
          {estimation.isPending ? 'Estimating…' : 'Estimate'}
        </Button>
      </Form>
      {error ? (
        <Alert variant="danger" className="mt-3" role="alert">
          {error instanceof ApiError ? pageMessage(error.message) : 'The estimation failed.'}
        </Alert>
      ) : null}
      {xlsxError ? (
        <Alert variant="danger" className="mt-3">
          {xlsxError}
        </Alert>
      ) : null}
      {report && sent ? (
        <EstimationReport
          e={report}
          fileName={sent.file.name}
          onXlsx={() => void downloadXlsx()}
          draftButton={
            isStaff(session) ? (
              <Button
                variant="primary"
                size="sm"
                onClick={() =>
                  void navigate('/bv_specifications/new', {
                    state: {
                      [ESTIMATION_DRAFT_STATE]: draftDataset(report),
                      [ESTIMATION_FILE_STATE]: sent.file,
                    },
                  })
                }
              >
                Create a draft dataset
              </Button>
            ) : null
          }
        />
      ) : null}
    </>
  );
}
