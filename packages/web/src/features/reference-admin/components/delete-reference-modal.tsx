import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/** The confirmation of spec section 4: Confirm sends the delete and closes; Cancel closes. */
export function DeleteReferenceModal({
  show,
  onConfirm,
  onCancel,
}: {
  show: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Modal show={show} onHide={onCancel} aria-labelledby="delete-reference-title">
      <Modal.Header closeButton>
        <Modal.Title id="delete-reference-title" as="h2" className="h5">
          Delete reference
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>Are you sure you want to delete the reference?</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm}>
          Confirm
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
