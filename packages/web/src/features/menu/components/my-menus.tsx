import { useState } from 'react';
import { Link } from 'react-router';
import { PaginationControl } from '../../../components/pagination-control';
import { Empty, ErrorText, Loading } from '../../../components/state-views';
import { useSession } from '../../../lib/session';
import { useMyMenus } from '../api/kept-menus';
import { dayOf } from './kept-menu-view';
import { paths } from '../../../lib/paths';

/** A signed-in user's kept menus (issue 32.4), the last changed first; nothing for a visitor. */
export function MyMenus() {
  const session = useSession();
  const [page, setPage] = useState(1);
  const { data, error, isPending } = useMyMenus(page, { enabled: session.user !== null });
  if (session.user === null) return null;
  return (
    <section className="d-print-none mb-3" aria-labelledby="my-menus-title" id="my-menus">
      <h2 className="h5" id="my-menus-title">
        My menus
      </h2>
      {isPending ? (
        <Loading />
      ) : error ? (
        <ErrorText>An error occurred while fetching your menus: {error.message}</ErrorText>
      ) : data.data.length === 0 ? (
        <Empty>You have kept no menu yet: upload one, then “Keep this menu”.</Empty>
      ) : (
        <>
          <ul className="list-unstyled">
            {data.data.map((m) => (
              <li key={m.id} className="mb-1">
                <Link to={paths.keptMenu(m.id)}>{m.name ?? `Menu of ${dayOf(m.created_at)}`}</Link>{' '}
                <span className="small text-body-secondary">
                  — {m.tests} {m.tests === 1 ? 'test' : 'tests'}
                  {m.population ? `, for ${m.population.label}` : ''}, values kept on {dayOf(m.kept_at)}
                </span>
              </li>
            ))}
          </ul>
          {data.meta.pagination.pages > 1 ? (
            <PaginationControl
              totalRecords={data.meta.pagination.count}
              currentPage={page}
              totalPages={data.meta.pagination.pages}
              onPageChange={setPage}
            />
          ) : null}
        </>
      )}
    </section>
  );
}
