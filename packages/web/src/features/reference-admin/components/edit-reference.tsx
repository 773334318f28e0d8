import type { Reference } from '@bvdb/contract';
import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { updateReferenceCall } from '../api/save-reference';
import { messageOf, useSaveThenUpload } from '../use-save-then-upload';
import { ReferenceForm, valuesOf } from './reference-form';
import { paths } from '../../../lib/paths';

/** The edit form of a loaded reference; a save over someone else's reloads the form with theirs. */
export function EditReference({ reference: r }: { reference: Reference }) {
  const id = r.id;
  const session = useSession();
  const afterSave = useSaveThenUpload();
  const [message, setMessage] = useState<ReactNode>(null);
  // The version the form's values come from; a conflict replaces both with the current record.
  const [base, setBase] = useState<{ version: number; values: ReturnType<typeof valuesOf> } | null>(null);
  const current = base ?? { version: r.version, values: valuesOf(r) };
  return (
    <>
      <h1 className="h3">Edit Reference</h1>
      <p className="text-muted">
        Reference {r.id} · version {current.version}
      </p>
      <ReferenceForm
        initial={current.values}
        resetKey={current.version}
        submitLabel="Save Reference"
        currentFileName={r.article_file_name}
        message={message}
        extraActions={
          <Link to={paths.reference(r.id)} className="btn btn-secondary">
            Cancel
          </Link>
        }
        onSubmit={async (body, file) => {
          setMessage(null);
          try {
            await updateReferenceCall(id, { ...body, version: current.version }, session.csrf_token);
            await afterSave(id, file, setMessage);
          } catch (err) {
            if (err instanceof ApiError && err.status === 409) {
              const now = (err.body as { current?: Parameters<typeof valuesOf>[0] } | undefined)?.current;
              if (now) setBase({ version: now.version, values: valuesOf(now) });
              setMessage(
                <Alert variant="warning">
                  {err.message}
                  {now ? ' Make your changes again and save.' : ''}
                </Alert>,
              );
              return;
            }
            setMessage(<Alert variant="danger">Submission failed: {messageOf(err)}</Alert>);
          }
        }}
      />
    </>
  );
}
