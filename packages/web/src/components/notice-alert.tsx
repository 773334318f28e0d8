import Alert from 'react-bootstrap/Alert';

/** The outcome of an action, told to the user: green when it worked, red when it did not. */
export type Notice = { ok: boolean; text: string };

/** A dismissible alert for the latest notice, nothing when there is none. */
export function NoticeAlert({ notice, onClose }: { notice: Notice | null; onClose: () => void }) {
  return notice ? (
    <Alert variant={notice.ok ? 'success' : 'danger'} dismissible onClose={onClose}>
      {notice.text}
    </Alert>
  ) : null;
}
