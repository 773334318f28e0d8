import type { Reference } from '@bvdb/contract';
import { formatCitation } from '@bvdb/domain';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { isStaff, useSession } from '../../../lib/session';
import { paths } from '../../../lib/paths';

// Loaded on the first click: the modal and its transition code stay out of the references pages'
// first load (issue 44.6, decision 088).
const ReferenceDetailsModal = lazy(async () => ({
  default: (await import('./reference-details-modal')).ReferenceDetailsModal,
}));

/** Title, authors, journal, pages, volume, year; a click opens the Reference Details modal. */
export function ReferenceCard({ reference: r }: { reference: Reference }) {
  const [show, setShow] = useState(false);
  // Mounted from the first opening on, so closing still fades out.
  const [opened, setOpened] = useState(false);
  const session = useSession();
  return (
    <div>
      <button
        type="button"
        className="btn btn-link p-0 text-start fw-semibold"
        onClick={() => {
          setOpened(true);
          setShow(true);
        }}
      >
        {r.title}
      </button>
      {/* The title is the button above; the rest of the citation follows, nothing unknown printed. */}
      <div className="small text-muted">
        {formatCitation({
          author: r.author,
          journal: r.journal,
          year: r.year_of_publication,
          volume: r.volume,
          pages: r.pages,
        })}
      </div>
      {isStaff(session) ? (
        <div className="mt-1 d-flex gap-2">
          <Link
            to={paths.reference(r.id)}
            className="btn btn-outline-primary btn-sm"
            aria-label={`View reference ${r.id}`}
          >
            View
          </Link>
          <Link
            to={paths.editReference(r.id)}
            className="btn btn-outline-secondary btn-sm"
            aria-label={`Edit reference ${r.id}`}
          >
            Edit
          </Link>
        </div>
      ) : null}
      {opened ? (
        <Suspense fallback={null}>
          <ReferenceDetailsModal reference={r} show={show} onHide={() => setShow(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
