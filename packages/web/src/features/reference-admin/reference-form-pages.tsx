import type { ReferenceBody } from '@bvdb/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../auth/api/get-session';
import { referenceQuery } from '../references/api/get-references';
import { createReferenceCall, updateReferenceCall } from './api/save-reference';
import { uploadReferenceFileCall } from './api/upload-reference-file';
import { emptyReferenceValues, ReferenceForm, valuesOf } from './reference-form';
import { RequireSignIn } from '../auth/require-sign-in';

const messageOf = (err: unknown) => (err instanceof ApiError ? err.message : 'An unknown error occurred.');

/** Saves the fields, then the file if one was chosen (a refused file leaves the saved fields saved). */
function useSaveThenUpload() {
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (id: number, file: File | null, setMessage: (m: ReactNode) => void) => {
    if (file) {
      try {
        await uploadReferenceFileCall(id, file, session.csrf_token);
      } catch (err) {
        await queryClient.invalidateQueries();
        setMessage(
          <Alert variant="danger">
            The reference was saved, but the file was not attached: {messageOf(err)}{' '}
            <Link to={`/references/${id}`}>Go to the reference</Link>
          </Alert>,
        );
        return;
      }
    }
    await queryClient.invalidateQueries();
    void navigate(`/references/${id}`, { state: { saved: true } });
  };
}

export function NewReferencePage() {
  const session = useSession();
  const afterSave = useSaveThenUpload();
  const [message, setMessage] = useState<ReactNode>(null);
  return (
    <RequireSignIn>
      <h1 className="h3">Enter New Reference</h1>
      <ReferenceForm
        initial={emptyReferenceValues}
        resetKey="new"
        submitLabel="Create Reference"
        message={message}
        onSubmit={async (body: ReferenceBody, file) => {
          setMessage(null);
          try {
            const { reference } = await createReferenceCall(body, session.csrf_token);
            await afterSave(reference.id, file, setMessage);
          } catch (err) {
            setMessage(<Alert variant="danger">Submission failed: {messageOf(err)}</Alert>);
          }
        }}
      />
    </RequireSignIn>
  );
}

export function EditReferencePage() {
  return (
    <RequireSignIn>
      <EditReference />
    </RequireSignIn>
  );
}

function EditReference() {
  const id = Number(useParams().id);
  const session = useSession();
  const ref = useQuery(referenceQuery(id));
  const afterSave = useSaveThenUpload();
  const [message, setMessage] = useState<ReactNode>(null);
  // The version the form's values come from; a conflict replaces both with the current record.
  const [base, setBase] = useState<{ version: number; values: ReturnType<typeof valuesOf> } | null>(null);
  if (ref.isPending) return <Loading />;
  if (ref.error) return <ErrorText>Error loading reference</ErrorText>;
  const r = ref.data.reference;
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
          <Link to={`/references/${r.id}`} className="btn btn-secondary">
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
