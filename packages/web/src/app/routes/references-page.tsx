import { lazy, Suspense, useEffect, useState } from 'react';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useSearchParams } from 'react-router';
import { PaginationControl } from '../../components/pagination-control';
import { ErrorText, Loading } from '../../components/state-views';
import { isStaff, useSession } from '../../lib/session';
import type { DeleteOutcome } from '../../features/reference-admin/components/reference-row-actions';
import { useReferencesPage } from '../../features/references/api/get-references';
import { ReferenceCard } from '../../features/references/components/reference-card';
import { DatabaseDownloads } from '../../components/database-downloads';

// Curators' row actions (delete with its confirmation modal) load only for them: readers' first load
// carries no modal or mutation code (issue 44.6, decision 088).
const rowActions = () => import('../../features/reference-admin/components/reference-row-actions');
const ReferenceRowActions = lazy(async () => ({ default: (await rowActions()).ReferenceRowActions }));
const DeleteOutcomeAlert = lazy(async () => ({ default: (await rowActions()).DeleteOutcomeAlert }));

/** References, paged and searched on the server (spec section 2). */
export function ReferencesPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const search = params.get('search') ?? '';
  const [text, setText] = useState(search);
  useEffect(() => setText(search), [search]);
  useEffect(() => {
    const t = setTimeout(() => {
      if (text !== search) setParams(text ? { search: text, page: '1' } : { page: '1' }, { replace: true });
    }, 300);
    return () => clearTimeout(t);
  }, [text, search, setParams]);
  const { data, error, isPending } = useReferencesPage(page, search);
  const session = useSession();
  const [outcome, setOutcome] = useState<DeleteOutcome | null>(null);
  const go = (p: number) => setParams(search ? { search, page: String(p) } : { page: String(p) });
  return (
    <>
      <h1 className="h3">By Reference</h1>
      <DatabaseDownloads className="mb-3" />
      <Form.Group className="mb-3" controlId="reference-search" style={{ maxWidth: 480 }}>
        <Form.Label className="visually-hidden">Search references</Form.Label>
        <Form.Control
          type="search"
          placeholder="Search references..."
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </Form.Group>
      {outcome ? (
        <Suspense fallback={null}>
          <DeleteOutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} />
        </Suspense>
      ) : null}
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorText>Error: {error.message}</ErrorText>
      ) : data && 'data' in data ? (
        data.data.length === 0 ? (
          <p className="my-3">{search ? 'No references found' : 'No references available'}</p>
        ) : (
          <>
            <Table striped bordered responsive>
              <caption className="caption-top">References</caption>
              <thead>
                <tr>
                  <th scope="col">Reference</th>
                  <th scope="col">Used In</th>
                  {isStaff(session) ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {data.data.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <ReferenceCard reference={r} />
                    </td>
                    <td className="text-nowrap">
                      {r.bv_specifications_count} dataset{r.bv_specifications_count === 1 ? '' : 's'}
                    </td>
                    {isStaff(session) ? (
                      <td>
                        <Suspense fallback={null}>
                          <ReferenceRowActions
                            id={r.id}
                            version={r.version}
                            title={r.title}
                            onOutcome={setOutcome}
                          />
                        </Suspense>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </Table>
            <PaginationControl
              totalRecords={data.meta.pagination.count}
              currentPage={data.meta.pagination.page}
              totalPages={data.meta.pagination.pages}
              onPageChange={go}
            />
          </>
        )
      ) : null}
    </>
  );
}
