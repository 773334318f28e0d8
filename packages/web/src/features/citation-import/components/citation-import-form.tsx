import type { CitationEntry, ReferenceBody } from '@bvdb/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { HeaderRow } from '../../../components/header-row';
import { NoticeAlert, type Notice } from '../../../components/notice-alert';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import {
  createCitationReferencesCall,
  useInvalidateAfterCitationImport,
} from '../api/create-citation-references';
import { previewCitationsCall } from '../api/preview-citations';
import { paths } from '../../../lib/paths';

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'An unknown error occurred.');

function duplicateText(d: NonNullable<CitationEntry['duplicate']>) {
  const by = { doi: 'DOI', pmid: 'PubMed id', title: 'title' }[d.by];
  return d.reference_id !== null ? (
    <>
      Same {by} as <Link to={paths.reference(d.reference_id)}>reference {d.reference_id}</Link>
    </>
  ) : (
    <>
      Same {by} as entry {d.entry}
    </>
  );
}

/** A RIS, BibTeX or PubMed file: preview every entry, then create the new, valid ones at once. */
export function CitationImportForm() {
  const { csrf_token } = useSession();
  const invalidateAfterImport = useInvalidateAfterCitationImport();
  const [entries, setEntries] = useState<CitationEntry[] | null>(null);
  const [format, setFormat] = useState<string>('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const preview = useMutation({
    mutationFn: async (file: File) => previewCitationsCall(await file.text(), undefined, csrf_token),
    onSuccess: (res) => {
      setEntries(res.entries);
      setFormat(res.format);
    },
    onError: (err) => {
      setEntries(null);
      setNotice({ ok: false, text: messageOf(err) });
    },
  });
  const create = useMutation({
    mutationFn: (references: ReferenceBody[]) => createCitationReferencesCall(references, csrf_token),
    onSuccess: (res) => {
      setEntries(null);
      setNotice({
        ok: true,
        text: `Created ${res.references.length} reference${res.references.length === 1 ? '' : 's'}.`,
      });
      void invalidateAfterImport();
    },
    onError: (err) => setNotice({ ok: false, text: messageOf(err) }),
  });
  const ready = (entries ?? []).filter((e) => e.problems.length === 0 && !e.duplicate);
  return (
    <>
      <p>
        Choose a citation file exported from PubMed (<code>.nbib</code>), a reference manager (
        <code>.ris</code>) or LaTeX (<code>.bib</code>). Nothing is saved until you confirm.
      </p>
      <Form.Group controlId="citation-file" className="mb-3" style={{ maxWidth: 520 }}>
        <Form.Label>Citation file</Form.Label>
        <Form.Control
          type="file"
          accept=".ris,.bib,.bibtex,.nbib,.txt"
          onChange={(e) => {
            const file = (e.target as HTMLInputElement).files?.[0];
            setNotice(null);
            if (file) preview.mutate(file);
          }}
        />
      </Form.Group>
      <NoticeAlert notice={notice} onClose={() => setNotice(null)} />
      {preview.isPending ? <p>Reading the file…</p> : null}
      {entries ? (
        <>
          {/* One card per entry on a phone: the DOI and the check are never off screen. */}
          <Table striped bordered size="sm" className="table-stack-phone">
            <caption className="caption-top">
              {entries.length} entr{entries.length === 1 ? 'y' : 'ies'} in the {format} file; {ready.length}{' '}
              will be created
            </caption>
            <thead>
              <HeaderRow names={['#', 'Title', 'Authors', 'Journal', 'Year', 'DOI', 'Check']} />
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.entry}>
                  <td data-label="#">{e.entry}</td>
                  <td data-label="Title">{e.reference.title}</td>
                  <td data-label="Authors">{e.reference.author}</td>
                  <td data-label="Journal">
                    {e.reference.journal} {e.reference.volume ?? ''} {e.reference.pages ?? ''}
                  </td>
                  <td data-label="Year">{e.reference.year_of_publication}</td>
                  <td data-label="DOI" className="text-break">
                    {e.reference.doi}
                  </td>
                  <td data-label="Check">
                    {e.problems.map((p) => (
                      <div key={p.path} className="text-danger">
                        {p.message}
                      </div>
                    ))}
                    {e.duplicate ? (
                      <div className="text-warning-emphasis">{duplicateText(e.duplicate)}: skipped</div>
                    ) : null}
                    {e.problems.length === 0 && !e.duplicate ? (
                      <span className="text-success">New</span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          {/* No disabled "Create 0 references" (issue 27.10): say why there is nothing to create. */}
          {ready.length === 0 ? (
            <p data-testid="nothing-to-create">
              Nothing to create: every entry in the file is already in the database or has a problem listed
              above.
            </p>
          ) : (
            <Button
              disabled={create.isPending}
              onClick={() => create.mutate(ready.map((e) => e.reference as ReferenceBody))}
            >
              Create {ready.length} reference{ready.length === 1 ? '' : 's'}
            </Button>
          )}
        </>
      ) : null}
    </>
  );
}
