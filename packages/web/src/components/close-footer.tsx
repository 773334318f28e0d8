import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/** The footer of a modal that only informs: one Close button. */
export function CloseFooter({ onClose }: { onClose: () => void }) {
  return (
    <Modal.Footer>
      <Button variant="secondary" onClick={onClose}>
        Close
      </Button>
    </Modal.Footer>
  );
}
