import type { Reference } from '@bvdb/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { isStaff, useSession } from '../../../lib/session';
import { ReferenceDetailsModal } from './reference-details-modal';

/** Title, authors, journal, pages, volume, year; a click opens the Reference Details modal. */
export function ReferenceCard({ reference: r }: { reference: Reference }) {
  const [show, setShow] = useState(false);
  const session = useSession();
  return (
    <div>
      <button type="button" className="btn btn-link p-0 text-start fw-semibold" onClick={() => setShow(true)}>
        {r.title}
      </button>
      <div className="small text-muted">
        {r.author ?? 'Unknown Author'}. <em>{r.journal ?? 'Unknown Journal'}</em>{' '}
        {r.year_of_publication ?? ''};{r.volume ?? 0}:{r.pages ?? 'N/A'}
      </div>
      {isStaff(session) ? (
        <div className="mt-1 d-flex gap-2">
          <Link
            to={`/references/${r.id}`}
            className="btn btn-outline-primary btn-sm"
            aria-label={`View reference ${r.id}`}
          >
            View
          </Link>
          <Link
            to={`/references/${r.id}/edit`}
            className="btn btn-outline-secondary btn-sm"
            aria-label={`Edit reference ${r.id}`}
          >
            Edit
          </Link>
        </div>
      ) : null}
      <ReferenceDetailsModal reference={r} show={show} onHide={() => setShow(false)} />
    </div>
  );
}
