import { signIn } from '@bvdb/contract';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useNavigate } from 'react-router';
import { apiCall, ApiError } from '../../lib/api-client';
import { TextInputField } from '../../components/text-input-field';
import { useInvalidateAfterSignInOrOut } from '../../lib/session';

export function SignInPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const invalidate = useInvalidateAfterSignInOrOut();
  return (
    <div style={{ maxWidth: 420 }} className="mx-auto">
      <h1 className="h3">Log in</h1>
      {error ? <Alert variant="danger">{error}</Alert> : null}
      <Form
        method="post"
        action="/users/sign_in"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          apiCall(signIn, { body: { email, password } })
            .then(async () => {
              await invalidate();
              void navigate('/');
            })
            .catch((err: unknown) => setError(err instanceof ApiError ? err.message : 'Sign-in failed'))
            .finally(() => setBusy(false));
        }}
      >
        <TextInputField
          controlId="email"
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={setEmail}
        />
        <TextInputField
          controlId="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          maxLength={128}
          value={password}
          onChange={setPassword}
        />
        <Button type="submit" disabled={busy}>
          Log in
        </Button>
      </Form>
    </div>
  );
}
