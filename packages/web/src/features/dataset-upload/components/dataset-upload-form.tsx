import { DATASET_TEMPLATE_PATH, type UploadPreview, type UploadRow } from '@bvdb/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { HeaderRow } from '../../../components/header-row';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import {
  commitDatasetUploadCall,
  previewDatasetUploadCall,
  useInvalidateAfterDatasetUpload,
} from '../api/upload-datasets';
import { paths } from '../../../lib/paths';

type Saved = Awaited<ReturnType<typeof commitDatasetUploadCall>>;

/** The messages of a refused upload: every bad cell when the server listed them. */
function problemsOf(err: unknown): string[] {
  if (!(err instanceof ApiError)) return ['An unknown error occurred.'];
  const fields = (err.body as { fields?: { path: string; message: string }[] } | undefined)?.fields ?? [];
  return fields.length > 1
    ? fields.map((f) => `${f.path.replace(/^row (\d+)\./, 'Row $1, ')}: ${f.message}`)
    : [err.message];
}

const COLUMNS = [
  'Row',
  'Unique Identifier',
  'Measurand',
  'Matrix',
  'Reference',
  'CVI (%)',
  'CVG (%)',
  'Problems',
];

function RowLine({ r }: { r: UploadRow }) {
  const bad = r.errors.length > 0;
  return (
    <tr className={bad ? 'table-danger' : undefined}>
      <th scope="row" data-label="Row">
        {r.row}
      </th>
      <td data-label="Unique Identifier">{r.unique_identifier ?? ''}</td>
      <td data-label="Measurand">{r.measurand ?? ''}</td>
      <td data-label="Matrix">{r.matrix ?? ''}</td>
      <td data-label="Reference">{r.reference ?? ''}</td>
      <td data-label="CVI (%)">{r.estimates_of_cvi ?? ''}</td>
      <td data-label="CVG (%)">{r.estimates_of_cvg ?? ''}</td>
      <td data-label="Problems" style={{ minWidth: '16rem' }}>
        {bad ? (
          <ul className="mb-0 ps-3">
            {r.errors.map((e, i) => (
              <li key={i}>
                {/* A grade's message already starts with its item ("QI1 Scale: …"). */}
                <strong>{e.column}</strong>:{' '}
                {e.message.startsWith(`${e.column}: `) ? e.message.slice(e.column.length + 2) : e.message}
              </li>
            ))}
          </ul>
        ) : (
          'OK'
        )}
      </td>
    </tr>
  );
}

function PreviewTable({ preview }: { preview: UploadPreview }) {
  const badRows = preview.rows.filter((r) => r.errors.length > 0).length;
  return (
    <>
      {preview.valid ? (
        <Alert variant="success">
          All {preview.rows.length} rows are valid ({preview.measurands} measurand
          {preview.measurands === 1 ? '' : 's'}). Nothing is saved until you confirm.
        </Alert>
      ) : (
        <Alert variant="danger">
          {preview.error_count} problem{preview.error_count === 1 ? '' : 's'}
          {badRows > 0 ? ` in ${badRows} of ${preview.rows.length} rows` : ''}: correct them in the
          spreadsheet and check it again. Nothing was saved.
          {preview.problems.length > 0 ? (
            <ul className="mb-0 mt-2">
              {preview.problems.map((p, i) => (
                <li key={i}>{p.message}</li>
              ))}
            </ul>
          ) : null}
        </Alert>
      )}
      {preview.rows.length > 0 ? (
        <Table bordered size="sm" className="table-stack-phone">
          <caption className="caption-top">
            The rows of {preview.file_name ?? 'the file'} (spreadsheet row numbers)
          </caption>
          <thead>
            <HeaderRow names={COLUMNS} />
          </thead>
          <tbody>
            {preview.rows.map((r) => (
              <RowLine key={r.row} r={r} />
            ))}
          </tbody>
        </Table>
      ) : null}
    </>
  );
}

function SavedNotice({ saved, rows }: { saved: Saved; rows: UploadRow[] }) {
  const names = new Map(rows.map((r) => [r.analyte_id, r.measurand]));
  return (
    <Alert variant="success">
      <p>
        Saved {saved.created.length} dataset{saved.created.length === 1 ? '' : 's'}. The meta-analyses of{' '}
        {saved.measurands.length} measurand{saved.measurands.length === 1 ? ' are' : 's are'} being
        recomputed.
      </p>
      <ul className="mb-0">
        {saved.measurands.map((id) => (
          <li key={id}>
            <Link to={paths.analyte(id)}>{names.get(id) ?? `Measurand ${id}`}</Link>
          </li>
        ))}
      </ul>
    </Alert>
  );
}

/**
 * Bulk entry: download the template, fill it, check it (every row with the form's rules, errors by
 * cell), then save all rows at once.
 */
export function DatasetUploadForm() {
  const { csrf_token } = useSession();
  const invalidateAfterUpload = useInvalidateAfterDatasetUpload();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<UploadPreview | null>(null);
  const [saved, setSaved] = useState<{ saved: Saved; rows: UploadRow[] } | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const reset = () => {
    setPreview(null);
    setProblems([]);
    setSaved(null);
  };
  const check = useMutation({
    mutationFn: (f: File) => previewDatasetUploadCall(f, csrf_token),
    onSuccess: (p) => setPreview(p),
    onError: (err) => setProblems(problemsOf(err)),
  });
  const commit = useMutation({
    mutationFn: (f: File) => commitDatasetUploadCall(f, csrf_token),
    onSuccess: (result) => {
      setSaved({ saved: result, rows: preview?.rows ?? [] });
      setPreview(null);
      void invalidateAfterUpload();
    },
    onError: (err) => {
      setPreview(null);
      setProblems(problemsOf(err));
    },
  });
  const busy = check.isPending || commit.isPending;
  return (
    <>
      <p>
        Enter many datasets at once (a paper&rsquo;s measurands, say):{' '}
        <a href={DATASET_TEMPLATE_PATH} download>
          download the template
        </a>
        , fill one row per dataset (its &ldquo;Read me&rdquo; sheet explains each column), then check it here.
        Every row is checked with the rules of the <Link to="/bv_specifications/new">dataset form</Link>;
        nothing is saved until every row is valid. Name each row&rsquo;s reference by DOI, PubMed id
        (PMID:12345678) or bvdb id; <Link to="/references/import">import new references</Link> first.
      </p>
      <Form
        style={{ maxWidth: 720 }}
        onSubmit={(e) => {
          e.preventDefault();
          reset();
          if (file) check.mutate(file);
        }}
      >
        <Form.Group controlId="dataset-upload-file" className="mb-3">
          <Form.Label>Filled template (.xlsx or .csv)</Form.Label>
          <Form.Control
            type="file"
            accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
            onChange={(e) => {
              reset();
              setFile((e.target as HTMLInputElement).files?.[0] ?? null);
            }}
          />
        </Form.Group>
        <Button type="submit" disabled={!file || busy}>
          Check the file
        </Button>
      </Form>
      <div className="mt-3" aria-live="polite">
        {busy ? <p>Working…</p> : null}
        {problems.length > 0 ? (
          <Alert variant="danger">
            <p className="mb-1">Nothing was saved:</p>
            <ul className="mb-0">
              {problems.slice(0, 100).map((p, i) => (
                <li key={i}>{p}</li>
              ))}
            </ul>
          </Alert>
        ) : null}
        {saved ? <SavedNotice saved={saved.saved} rows={saved.rows} /> : null}
        {preview ? (
          <>
            <PreviewTable preview={preview} />
            {preview.valid ? (
              <Button disabled={busy} onClick={() => file && commit.mutate(file)}>
                Save {preview.rows.length} dataset{preview.rows.length === 1 ? '' : 's'}
              </Button>
            ) : null}
          </>
        ) : null}
      </div>
    </>
  );
}
