import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/session';
import { useInvalidateAfterReferenceSave } from './api/save-reference';
import { uploadReferenceFileCall } from './api/upload-reference-file';
import { paths } from '../../lib/paths';

export const messageOf = (err: unknown) =>
  err instanceof ApiError ? err.message : 'An unknown error occurred.';

/** Saves the fields, then the file if one was chosen (a refused file leaves the saved fields saved). */
export function useSaveThenUpload() {
  const session = useSession();
  const invalidateAfterSave = useInvalidateAfterReferenceSave();
  const navigate = useNavigate();
  return async (id: number, file: File | null, setMessage: (m: ReactNode) => void) => {
    if (file) {
      try {
        await uploadReferenceFileCall(id, file, session.csrf_token);
      } catch (err) {
        await invalidateAfterSave();
        setMessage(
          <Alert variant="danger">
            The reference was saved, but the file was not attached: {messageOf(err)}{' '}
            <Link to={paths.reference(id)}>Go to the reference</Link>
          </Alert>,
        );
        return;
      }
    }
    await invalidateAfterSave();
    void navigate(paths.reference(id), { state: { saved: true } });
  };
}
