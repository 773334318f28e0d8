import type { MyAppraisal } from '@bvdb/contract';
import { QUALITY_ITEMS } from '@bvdb/domain';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { ErrorText, Loading } from '../../../components/state-views';
import { ApiError } from '../../../lib/api-client';
import { useMyAppraisal, useSubmitAppraisal } from '../api/my-appraisals';
import { SLOT_LABELS } from './my-appraisals-list';
import { paths } from '../../../lib/paths';

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'An unknown error occurred.');

/** One appraisal: the paper, and the 14 items with a grade and a comment each (or the decisions of a third). */
export function AppraisalForm({ id }: { id: number }) {
  const appraisal = useMyAppraisal(id);
  if (appraisal.isPending) return <Loading />;
  if (appraisal.error) return <ErrorText>Error: {appraisal.error.message}</ErrorText>;
  return <AppraisalView key={appraisal.data.version} appraisal={appraisal.data} />;
}

function PaperCard({ a }: { a: MyAppraisal }) {
  const r = a.reference;
  return (
    <Card className="mb-3">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {r.title ?? 'Unknown Title'}
        </Card.Title>
        <p className="mb-1">
          {(r.author ?? 'Unknown Author').replace(/\.$/, '')}. {r.journal ?? 'Unknown Journal'}
          {r.year_of_publication ? ` ${r.year_of_publication}` : ''}.
        </p>
        <p className="mb-0 d-flex flex-wrap gap-3">
          <span>
            Dataset <Link to={paths.dataset(a.dataset.id)}>{a.dataset.unique_identifier}</Link> ·{' '}
            {a.dataset.analyte}
            {a.dataset.matrix ? ` · ${a.dataset.matrix}` : ''}
          </span>
          {r.doi ? <a href={`https://doi.org/${r.doi}`}>DOI {r.doi}</a> : null}
          {r.pubmed_link ? <a href={r.pubmed_link}>PubMed</a> : null}
          {r.file_url ? <a href={r.file_url}>Article file (PDF)</a> : null}
        </p>
      </Card.Body>
    </Card>
  );
}

function AppraisalView({ appraisal: a }: { appraisal: MyAppraisal }) {
  const submit = useSubmitAppraisal(a.id);
  const third = a.slot === 'third';
  const submitted = a.status === 'submitted';
  const [grades, setGrades] = useState<Record<string, string>>(
    () => a.grades ?? (third ? {} : Object.fromEntries(QUALITY_ITEMS.map((i) => [i.key, '']))),
  );
  const [comments, setComments] = useState<Record<string, string>>(() => a.comments ?? {});
  const [error, setError] = useState<string | null>(null);
  const other = (slot: 'A' | 'B') => a.others.find((o) => o.slot === slot);
  const items = QUALITY_ITEMS;
  return (
    <>
      <p>
        Your part: <strong>{SLOT_LABELS[a.slot]}</strong>
        {third ? ' — decide each item the first two appraisals graded differently.' : ''}
      </p>
      <PaperCard a={a} />
      {submitted ? <Alert variant="success">Submitted — thank you.</Alert> : null}
      {error ? (
        <Alert variant="danger" dismissible onClose={() => setError(null)}>
          {error}
        </Alert>
      ) : null}
      <Form
        aria-label="BIVAC appraisal"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          const chosen = Object.fromEntries(Object.entries(grades).filter(([, g]) => g !== ''));
          submit.mutate(
            { version: a.version, grades: chosen, comments },
            { onError: (err) => setError(messageOf(err)) },
          );
        }}
      >
        <Table bordered responsive size="sm" className="align-middle">
          <caption className="caption-top">The 14 BIVAC quality items</caption>
          <thead>
            <tr>
              <th scope="col">Item</th>
              {third ? (
                <>
                  <th scope="col">First (A)</th>
                  <th scope="col">Second (B)</th>
                  <th scope="col">Decision</th>
                </>
              ) : (
                <th scope="col">Grade</th>
              )}
              <th scope="col">Comment</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => {
              const disputed = a.disputed_items.includes(item.key);
              const name = `QI${item.number} ${item.label}`;
              const editable = !submitted && (!third || disputed);
              const a1 = other('A');
              const b1 = other('B');
              return (
                <tr key={item.key} className={third && disputed ? 'table-warning' : undefined}>
                  <th scope="row">{name}</th>
                  {third ? (
                    <>
                      <td>
                        {a1?.grades[item.key]}
                        {a1?.comments[item.key] ? (
                          <div className="small text-body-secondary">{a1.comments[item.key]}</div>
                        ) : null}
                      </td>
                      <td>
                        {b1?.grades[item.key]}
                        {b1?.comments[item.key] ? (
                          <div className="small text-body-secondary">{b1.comments[item.key]}</div>
                        ) : null}
                      </td>
                    </>
                  ) : null}
                  <td>
                    {third && !disputed ? (
                      <span>{a1?.grades[item.key]} (agreed)</span>
                    ) : (
                      <Form.Select
                        size="sm"
                        aria-label={`Grade for ${name}`}
                        style={{ minWidth: '5.5rem' }}
                        required={editable}
                        disabled={!editable}
                        value={grades[item.key] ?? ''}
                        onChange={(e) => setGrades({ ...grades, [item.key]: e.target.value })}
                      >
                        <option value="">—</option>
                        {item.allowedGrades.map((g) => (
                          <option key={g} value={g}>
                            {g}
                          </option>
                        ))}
                      </Form.Select>
                    )}
                  </td>
                  <td>
                    <Form.Control
                      size="sm"
                      as="textarea"
                      rows={1}
                      maxLength={4000}
                      aria-label={`Comment on ${name}`}
                      disabled={!editable}
                      value={comments[item.key] ?? ''}
                      onChange={(e) => setComments({ ...comments, [item.key]: e.target.value })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
        {submitted ? null : (
          <Button type="submit" disabled={submit.isPending}>
            Submit appraisal
          </Button>
        )}
      </Form>
    </>
  );
}
