import { changePassword } from '@bvdb/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { apiCall, ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session';

export function ChangePasswordPage() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  if (!session.user) return <p>Not Authorised</p>;
  return (
    <div style={{ maxWidth: 460 }} className="mx-auto">
      <h1 className="h3">Change Password</h1>
      {status ? <Alert variant={status.ok ? 'success' : 'danger'}>{status.text}</Alert> : null}
      <Form
        onSubmit={(e) => {
          e.preventDefault();
          apiCall(changePassword, {
            body: { current_password: current, password, password_confirmation: confirmation },
            csrfToken: session.csrf_token,
          })
            .then(async () => {
              setStatus({ ok: true, text: 'Your password has been changed.' });
              setCurrent('');
              setPassword('');
              setConfirmation('');
              await queryClient.invalidateQueries({ queryKey: ['session'] });
            })
            .catch((err: unknown) =>
              setStatus({
                ok: false,
                text: err instanceof ApiError ? err.message : 'Could not change the password',
              }),
            );
        }}
      >
        <Form.Group className="mb-3" controlId="current-password">
          <Form.Label>Current password</Form.Label>
          <Form.Control
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </Form.Group>
        <Form.Group className="mb-3" controlId="new-password">
          <Form.Label>New password (8 to 128 characters)</Form.Label>
          <Form.Control
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Form.Group>
        <Form.Group className="mb-3" controlId="confirm-password">
          <Form.Label>Confirm new password</Form.Label>
          <Form.Control
            type="password"
            autoComplete="new-password"
            required
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
          />
        </Form.Group>
        <Button type="submit">Change Password</Button>
      </Form>
    </div>
  );
}
