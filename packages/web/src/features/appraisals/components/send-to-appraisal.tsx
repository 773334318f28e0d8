import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useOpenAppraisal } from '../api/appraisal-board';

/** A curator sends a dataset to two new independent appraisals. */
export function SendToAppraisal({ datasetId }: { datasetId: number }) {
  const open = useOpenAppraisal();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <span className="d-inline-flex align-items-center gap-2">
      <Button
        size="sm"
        variant="outline-primary"
        disabled={open.isPending}
        onClick={() =>
          open.mutate(datasetId, {
            onSuccess: () => setMessage({ ok: true, text: 'Sent to appraisal.' }),
            onError: (err) =>
              setMessage({
                ok: false,
                text: err instanceof ApiError ? err.message : 'An unknown error occurred.',
              }),
          })
        }
      >
        Send to appraisal
      </Button>
      {message ? (
        <span role="status" className={message.ok ? 'text-success' : 'text-danger'}>
          {message.text} {message.ok ? <Link to="/appraisals/board">Open the board</Link> : null}
        </span>
      ) : null}
    </span>
  );
}
