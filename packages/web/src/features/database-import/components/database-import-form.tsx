import type { ImportMode, ImportSummary } from '@bvdb/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { HeaderRow } from '../../../components/header-row';
import { NoticeAlert, type Notice } from '../../../components/notice-alert';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { importDatabaseCall, useInvalidateAfterDatabaseImport } from '../api/import-database';
import { ImportDeletes } from './import-deletes';

function problemsOf(err: unknown): string[] {
  if (!(err instanceof ApiError)) return ['An unknown error occurred.'];
  const fields = (err.body as { fields?: { message: string }[] } | undefined)?.fields ?? [];
  return fields.length > 1 ? fields.map((f) => f.message) : [err.message];
}

/** A backup made by an assessor of an open round leaves rows out (decision 038). */
const partialNote = (withheld: Record<string, number>) =>
  `The file is partial: its maker assessed an open appraisal round and could not read ${Object.entries(
    withheld,
  )
    .map(([table, n]) => `${n} ${table}`)
    .join(', ')}; it can only be merged.`;

const SCOPES: Record<ImportSummary['scope'], string> = {
  published: 'An export of the published records',
  all: 'A whole-database export',
  full: 'A complete backup (with users, audit trail, mailing list, pages and PDFs)',
};

const MODES: { value: ImportMode; label: string }[] = [
  { value: 'new', label: 'Into an empty database (refused if it holds measurands, references or datasets)' },
  { value: 'replace', label: 'Replace the tables the file carries with the file (the others are kept)' },
  { value: 'merge', label: 'Merge: add the file, overwriting records with the same ids' },
];

function importedText(summary: ImportSummary): string {
  const parts = [`Imported in ${(summary.import_ms / 1000).toFixed(1)} s.`];
  if (summary.backup_file) {
    parts.push(
      `The database as it was is saved as ${summary.backup_file} (in the backups folder of the data folder).`,
    );
  }
  if (summary.returned_to_final) {
    parts.push(`${summary.returned_to_final} datasets in appraisal had no round left: they are final again.`);
  }
  return parts.join(' ');
}

/** Upload a whole-database file, preview what it would do, then confirm: one transaction. */
export function DatabaseImportForm() {
  const { csrf_token } = useSession();
  const invalidateAfterImport = useInvalidateAfterDatabaseImport();
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<ImportMode>('new');
  const [recompute, setRecompute] = useState(false);
  const [clearAbsent, setClearAbsent] = useState(false);
  const [preview, setPreview] = useState<ImportSummary | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const run = useMutation({
    mutationFn: (dryRun: boolean) =>
      importDatabaseCall(file!, { mode, dryRun, recompute, clearAbsent }, csrf_token),
    onSuccess: (summary) => {
      setProblems([]);
      if (summary.written) {
        setPreview(null);
        setNotice({ ok: true, text: importedText(summary) });
        void invalidateAfterImport();
      } else {
        setPreview(summary);
      }
    },
    onError: (err) => {
      setPreview(null);
      setProblems(problemsOf(err));
    },
  });
  const reset = () => {
    setPreview(null);
    setProblems([]);
    setNotice(null);
  };
  return (
    <>
      <p>
        Load a file from <a href="/export/bv_database.json">/export/bv_database.json</a> (or{' '}
        <code>npm run export</code>) into this database in one transaction: all or nothing, with the ids of
        the file.
      </p>
      <Form
        style={{ maxWidth: 720 }}
        onSubmit={(e) => {
          e.preventDefault();
          reset();
          run.mutate(true);
        }}
      >
        <Form.Group controlId="database-file" className="mb-3">
          <Form.Label>Database file (.json)</Form.Label>
          <Form.Control
            type="file"
            accept=".json,application/json"
            onChange={(e) => {
              reset();
              setFile((e.target as HTMLInputElement).files?.[0] ?? null);
            }}
          />
        </Form.Group>
        <fieldset className="mb-3">
          <legend className="fs-6">How</legend>
          {MODES.map((m) => (
            <Form.Check
              key={m.value}
              type="radio"
              id={`mode-${m.value}`}
              name="mode"
              label={m.label}
              checked={mode === m.value}
              onChange={() => {
                reset();
                setMode(m.value);
              }}
            />
          ))}
        </fieldset>
        {mode === 'replace' ? (
          <Form.Check
            className="mb-3"
            id="clear-absent"
            label="Also empty the tables the file leaves out (otherwise they are kept as they are)"
            checked={clearAbsent}
            onChange={(e) => {
              reset();
              setClearAbsent(e.target.checked);
            }}
          />
        ) : null}
        <Form.Check
          className="mb-3"
          id="recompute"
          label="Recompute the meta-analysis results with bvdb's rules instead of importing them"
          checked={recompute}
          onChange={(e) => {
            reset();
            setRecompute(e.target.checked);
          }}
        />
        <Button type="submit" disabled={!file || run.isPending}>
          Preview
        </Button>
      </Form>
      <div className="mt-3" aria-live="polite">
        <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
        {run.isPending ? <p>Working…</p> : null}
        {problems.length > 0 ? (
          <div className="alert alert-danger">
            <p className="mb-1">Nothing was imported:</p>
            <ul className="mb-0">
              {problems.slice(0, 50).map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {preview ? (
          <>
            <Table striped bordered responsive size="sm" style={{ maxWidth: 720 }}>
              <caption className="caption-top">
                {SCOPES[preview.scope]} (format {preview.format_version}
                {preview.exported_at ? `, ${preview.exported_at.slice(0, 10)}` : ''}). The database holds{' '}
                {preview.existing.analytes} measurands, {preview.existing.references} references and{' '}
                {preview.existing.bv_specifications} datasets now.
                {preview.withheld ? ` ${partialNote(preview.withheld)}` : ''}
              </caption>
              <thead>
                <HeaderRow names={['Table', 'Rows in the file', 'Would overwrite']} />
              </thead>
              <tbody>
                {preview.tables.map((t) => (
                  <tr key={t.name}>
                    {/* Long table names may break so the table fits a phone. */}
                    <td className="text-break">{t.name}</td>
                    <td>{t.rows}</td>
                    <td>
                      {t.overwritten.length > 0
                        ? `${t.overwritten.length} (ids ${t.overwritten.slice(0, 8).join(', ')}${t.overwritten.length > 8 ? ', …' : ''})`
                        : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <ImportDeletes summary={preview} replace={mode === 'replace'} />
            <Button
              variant={mode === 'new' ? 'primary' : 'danger'}
              disabled={run.isPending}
              onClick={() => run.mutate(false)}
            >
              Confirm import
            </Button>
          </>
        ) : null}
      </div>
    </>
  );
}
