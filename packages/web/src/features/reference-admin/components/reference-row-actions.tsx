import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useDeleteReference } from '../api/delete-reference';
import { DeleteReferenceModal } from './delete-reference-modal';
import { paths } from '../../../lib/paths';

export type DeleteOutcome = { ok: true; text: string } | { ok: false; text: string };

/** Edit and Delete of one reference row (signed-in users); the outcome goes up to the page. */
export function ReferenceRowActions({
  id,
  version,
  title,
  onOutcome,
}: {
  id: number;
  /** The version the list showed: a delete after someone else's edit is refused (409). */
  version: number;
  title: string;
  onOutcome: (outcome: DeleteOutcome) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const del = useDeleteReference();
  return (
    <div className="d-flex gap-1 flex-wrap">
      <Link
        to={paths.editReference(id)}
        className="btn btn-outline-secondary btn-sm"
        aria-label={`Edit reference ${id}`}
        title={`Edit: ${title}`}
      >
        Edit
      </Link>
      <Button
        variant="outline-danger"
        size="sm"
        aria-label={`Delete reference ${id}`}
        disabled={del.isPending}
        onClick={() => setConfirming(true)}
      >
        Delete
      </Button>
      <DeleteReferenceModal
        show={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          // mutateAsync, not mutate's callbacks: the row (and this component) is gone once the list
          // refetches, and the page must still hear the outcome.
          del
            .mutateAsync({ id, version })
            .then(() => onOutcome({ ok: true, text: 'Delete successful' }))
            .catch((err: unknown) => {
              console.error('Reference deletion failed', err);
              onOutcome({
                ok: false,
                text: err instanceof ApiError ? err.message : 'The reference could not be deleted.',
              });
            });
        }}
      />
    </div>
  );
}

/** What a deletion came to, above the list until dismissed. */
export function DeleteOutcomeAlert({ outcome, onClose }: { outcome: DeleteOutcome; onClose: () => void }) {
  return (
    <Alert variant={outcome.ok ? 'success' : 'danger'} dismissible onClose={onClose} className="my-2">
      {outcome.text}
    </Alert>
  );
}
