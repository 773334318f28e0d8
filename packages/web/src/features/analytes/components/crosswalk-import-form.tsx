import { measurandCodesCsvUrl, type CrosswalkPreview } from '@bvdb/contract';
import { codeSystemName, codeSystemOf } from '@bvdb/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { HeaderRow } from '../../../components/header-row';
import { NoticeAlert, type Notice } from '../../../components/notice-alert';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { importMeasurandCodesCall, useInvalidateAfterCodesImport } from '../api/import-measurand-codes';
import { previewMeasurandCodesImportCall } from '../api/preview-measurand-codes-import';

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'An unknown error occurred.');
const STATUS = { add: 'Add', change: 'Change', unchanged: 'Unchanged', refused: 'Refused' } as const;
const STATUS_CLASS = {
  add: 'text-success',
  change: 'text-primary',
  unchanged: 'text-muted',
  refused: 'text-danger',
} as const;

/**
 * A crosswalk file (decision 093): preview every line — added, changed, unchanged, refused with
 * its message — then apply the preview's plan at once. Refused lines are left out.
 */
export function CrosswalkImportForm() {
  const { csrf_token } = useSession();
  const invalidate = useInvalidateAfterCodesImport();
  const [file, setFile] = useState<{ text: string; preview: CrosswalkPreview } | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const preview = useMutation({
    mutationFn: async (chosen: File) => {
      const text = await chosen.text();
      return { text, preview: await previewMeasurandCodesImportCall(text, csrf_token) };
    },
    onSuccess: setFile,
    onError: (err) => {
      setFile(null);
      setNotice({ ok: false, text: messageOf(err) });
    },
  });
  const confirm = useMutation({
    mutationFn: (f: { text: string; plan: string }) => importMeasurandCodesCall(f.text, f.plan, csrf_token),
    onSuccess: (res) => {
      setFile(null);
      setNotice({
        ok: true,
        text: `Imported: ${res.counts.add} code${res.counts.add === 1 ? '' : 's'} added, ${res.counts.change} changed, ${res.counts.refused} line${res.counts.refused === 1 ? '' : 's'} left out.`,
      });
      void invalidate();
    },
    onError: (err) => setNotice({ ok: false, text: messageOf(err) }),
  });
  const counts = file?.preview.counts;
  const toApply = counts ? counts.add + counts.change : 0;
  return (
    <>
      <p>
        Choose a crosswalk file (CSV with the header{' '}
        <code>system,code,display,measurand,matrix,ucum_unit,source</code>, as{' '}
        <a href={measurandCodesCsvUrl}>the current crosswalk</a> is written). Codes are added or changed;
        codes the file does not name stay. Nothing is saved until you confirm.
      </p>
      <Form.Group controlId="crosswalk-file" className="mb-3" style={{ maxWidth: 520 }}>
        <Form.Label>Crosswalk file</Form.Label>
        <Form.Control
          type="file"
          accept=".csv,.txt,text/csv"
          onChange={(e) => {
            const chosen = (e.target as HTMLInputElement).files?.[0];
            setNotice(null);
            if (chosen) preview.mutate(chosen);
          }}
        />
      </Form.Group>
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
      {preview.isPending ? <p>Reading the file…</p> : null}
      {file && counts ? (
        <>
          <Table striped bordered size="sm" className="table-stack-phone">
            <caption className="caption-top">
              {file.preview.lines.length} line{file.preview.lines.length === 1 ? '' : 's'}: {counts.add} to
              add, {counts.change} to change, {counts.unchanged} unchanged, {counts.refused} refused
            </caption>
            <thead>
              <HeaderRow names={['Line', 'Code', 'Measurand', 'Matrix', 'Unit', 'What happens']} />
            </thead>
            <tbody>
              {file.preview.lines.map((l) => {
                const system = codeSystemOf(l.system);
                return (
                  <tr key={l.line} data-testid="crosswalk-line">
                    <td data-label="Line">{l.line}</td>
                    <td data-label="Code">
                      {system ? codeSystemName(system) : l.system} <code>{l.code}</code>
                    </td>
                    <td data-label="Measurand">{l.measurand}</td>
                    <td data-label="Matrix">{l.matrix}</td>
                    <td data-label="Unit">{l.ucum_unit}</td>
                    <td data-label="What happens">
                      <span className={STATUS_CLASS[l.status]}>{STATUS[l.status]}</span>
                      {l.message ? `: ${l.message}` : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
          <p className="small text-muted">{file.preview.notice}</p>
          {toApply === 0 ? (
            <p data-testid="nothing-to-import">
              Nothing to import: every line is already as the file says or is refused above.
            </p>
          ) : (
            <Button
              disabled={confirm.isPending}
              onClick={() => confirm.mutate({ text: file.text, plan: file.preview.plan })}
            >
              Import {toApply} code{toApply === 1 ? '' : 's'}
            </Button>
          )}
        </>
      ) : null}
    </>
  );
}
