import type { LocalEstimate } from '@bvdb/contract';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { ApiError } from '../../../lib/api-client';
import { useDeleteLocalEstimate, useUpdateLocalEstimate } from '../api/edit-local-estimate';

const failure = (err: unknown, what: string, fallback: string) =>
  err instanceof ApiError && err.status === 409
    ? `Someone else changed this local estimate since you opened it; ${what}. The list now shows their version.`
    : err instanceof ApiError
      ? err.message
      : fallback;

/**
 * A curator's "Edit" and "Delete" of one local estimate (decision 100): the labels only (laboratory,
 * period, note), of the version shown; a conflict says so and the list shows the other version.
 */
export function LocalEstimateActions({ e }: { e: LocalEstimate }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const del = useDeleteLocalEstimate(e.measurand_id);
  const name = `${e.laboratory}${e.period ? `, ${e.period}` : ''}`;
  return (
    <>
      <div className="d-flex gap-1 flex-wrap">
        <Button
          size="sm"
          variant="outline-secondary"
          aria-label={`Edit the local estimate of ${name}`}
          onClick={() => {
            setError(null);
            setEditing(true);
          }}
        >
          Edit
        </Button>
        <Button
          size="sm"
          variant="outline-danger"
          disabled={del.isPending}
          aria-label={`Delete the local estimate of ${name}`}
          onClick={() => {
            setError(null);
            setConfirming(true);
          }}
        >
          Delete
        </Button>
      </div>
      {error ? (
        <Alert variant="danger" className="mt-2 mb-0 py-1 small" onClose={() => setError(null)} dismissible>
          {error}
        </Alert>
      ) : null}
      {editing ? (
        <EditLocalEstimate
          e={e}
          onClose={() => setEditing(false)}
          onConflict={(message) => {
            setEditing(false);
            setError(message);
          }}
        />
      ) : null}
      <Modal
        show={confirming}
        onHide={() => setConfirming(false)}
        aria-labelledby={`delete-local-${e.id}-title`}
      >
        <Modal.Header closeButton>
          <Modal.Title id={`delete-local-${e.id}-title`} as="h2" className="h5">
            Delete local estimate
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          Delete the local estimate of {name} (CVI {e.cvi} %)? The audit trail keeps what it was.
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setConfirming(false);
              del
                .mutateAsync({ id: e.id, version: e.version })
                .catch((err: unknown) =>
                  setError(failure(err, 'it was not deleted', 'The local estimate could not be deleted.')),
                );
            }}
          >
            Delete
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

function EditLocalEstimate({
  e,
  onClose,
  onConflict,
}: {
  e: LocalEstimate;
  onClose: () => void;
  onConflict: (message: string) => void;
}) {
  const update = useUpdateLocalEstimate(e.measurand_id);
  const [laboratory, setLaboratory] = useState(e.laboratory);
  const [period, setPeriod] = useState(e.period ?? '');
  const [note, setNote] = useState(e.note ?? '');
  const [error, setError] = useState<string | null>(null);
  const titleId = `edit-local-${e.id}-title`;
  const submit = (ev: React.FormEvent) => {
    ev.preventDefault();
    setError(null);
    update
      .mutateAsync({
        id: e.id,
        body: { version: e.version, laboratory, period: period.trim() || null, note: note.trim() || null },
      })
      .then(onClose)
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 409)
          onConflict(failure(err, 'your edit was not saved', ''));
        else setError(failure(err, '', 'The local estimate could not be saved.'));
      });
  };
  return (
    <Modal show onHide={onClose} aria-labelledby={titleId}>
      <Form onSubmit={submit}>
        <Modal.Header closeButton>
          <Modal.Title id={titleId} as="h2" className="h5">
            Edit local estimate
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-muted">The numbers of the run stay as saved; only these labels change.</p>
          <Form.Group className="mb-2" controlId={`edit-local-${e.id}-laboratory`}>
            <Form.Label>Laboratory</Form.Label>
            <Form.Control
              required
              maxLength={200}
              value={laboratory}
              onChange={(x) => setLaboratory(x.target.value)}
            />
          </Form.Group>
          <Form.Group className="mb-2" controlId={`edit-local-${e.id}-period`}>
            <Form.Label>Period</Form.Label>
            <Form.Control
              maxLength={100}
              placeholder="2023–2024"
              value={period}
              onChange={(x) => setPeriod(x.target.value)}
            />
          </Form.Group>
          <Form.Group controlId={`edit-local-${e.id}-note`}>
            <Form.Label>Note</Form.Label>
            <Form.Control
              as="textarea"
              rows={3}
              maxLength={2000}
              value={note}
              onChange={(x) => setNote(x.target.value)}
            />
          </Form.Group>
          {error ? (
            <Alert variant="danger" className="mt-2 mb-0 py-1 small">
              {error}
            </Alert>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending || !laboratory.trim()}>
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
