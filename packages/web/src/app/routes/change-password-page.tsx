import { ANY_ROLE, changePassword } from '@bvdb/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { apiCall, ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { TextInputField } from '../../components/text-input-field';
import { RequireSignIn } from '../../components/require-sign-in';
import { queryKeys } from '../../lib/query-keys';

export function ChangePasswordPage() {
  return (
    <RequireSignIn roles={ANY_ROLE}>
      <ChangePasswordForm />
    </RequireSignIn>
  );
}

function ChangePasswordForm() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
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
              await queryClient.invalidateQueries({ queryKey: queryKeys.session });
            })
            .catch((err: unknown) =>
              setStatus({
                ok: false,
                text: err instanceof ApiError ? err.message : 'Could not change the password',
              }),
            );
        }}
      >
        <TextInputField
          controlId="current-password"
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={setCurrent}
        />
        <TextInputField
          controlId="new-password"
          label="New password (8 to 128 characters)"
          type="password"
          autoComplete="new-password"
          minLength={8}
          maxLength={128}
          value={password}
          onChange={setPassword}
        />
        <TextInputField
          controlId="confirm-password"
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onChange={setConfirmation}
        />
        <Button type="submit">Change Password</Button>
      </Form>
    </div>
  );
}
