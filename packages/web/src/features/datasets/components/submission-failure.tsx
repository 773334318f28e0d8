import Alert from 'react-bootstrap/Alert';
import { ApiError } from '../../../lib/api-client';

/** "Submission failed: {response text}", or the unknown-error text (spec section 8). */
export const submissionFailure = (err: unknown) => (
  <Alert variant="danger">
    {err instanceof ApiError ? `Submission failed: ${err.message}` : 'An unknown error occurred.'}
  </Alert>
);
