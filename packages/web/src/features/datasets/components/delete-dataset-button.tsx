import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useDeleteDataset } from '../api/delete-dataset';
import { paths } from '../../../lib/paths';

/** "Delete Dataset" with a confirmation; the version shown is the one deleted (409 if it changed). */
export function DeleteDatasetButton({
  id,
  version,
  analyteId,
  label,
}: {
  id: number;
  version: number;
  analyteId: number;
  label: string;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const del = useDeleteDataset();
  const navigate = useNavigate();
  return (
    <>
      <Button variant="outline-danger" size="sm" disabled={del.isPending} onClick={() => setConfirming(true)}>
        Delete Dataset
      </Button>
      {error ? (
        <Alert variant="danger" className="w-100 mb-0 mt-2" onClose={() => setError(null)} dismissible>
          {error}
        </Alert>
      ) : null}
      <Modal show={confirming} onHide={() => setConfirming(false)} aria-labelledby="delete-dataset-title">
        <Modal.Header closeButton>
          <Modal.Title id="delete-dataset-title" as="h2" className="h5">
            Delete dataset
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          Are you sure you want to delete the dataset {label}? Its measurand&apos;s meta-analysis is
          recalculated without it.
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setConfirming(false);
              setError(null);
              del
                .mutateAsync({ id, version })
                .then(() => navigate(paths.analyte(analyteId)))
                .catch((err: unknown) =>
                  setError(
                    err instanceof ApiError && err.status === 409
                      ? 'Someone else changed this dataset since you opened it; it was not deleted. Reload the page to see their version.'
                      : err instanceof ApiError
                        ? err.message
                        : 'The dataset could not be deleted.',
                  ),
                );
            }}
          >
            Confirm
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
