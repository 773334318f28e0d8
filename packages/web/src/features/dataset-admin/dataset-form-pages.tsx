import type { DatasetForm as DatasetFormData } from '@bvdb/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorText, Loading } from '../../components/state-views';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../auth/api/get-session';
import { RequireSignIn } from '../auth/require-sign-in';
import { datasetFormQuery } from './api/get-dataset-form';
import { createDatasetCall, updateDatasetCall } from './api/save-dataset';
import { DatasetForm, showServerFieldErrors } from './dataset-form';
import { DEFAULT_DATASET_VALUES, valuesOf } from './dataset-form-values';

/** "Submission failed: {response text}", or the unknown-error text (spec section 8). */
const failure = (err: unknown) => (
  <Alert variant="danger">
    {err instanceof ApiError ? `Submission failed: ${err.message}` : 'An unknown error occurred.'}
  </Alert>
);

export function NewDatasetPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Enter New BIVAC Dataset</h1>
      <CreateDataset />
    </RequireSignIn>
  );
}

/** The create form; after a successful submit it shows the success alert and resets to the defaults. */
function CreateDataset({ from }: { from?: DatasetFormData }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<ReactNode>(null);
  const [resetKey, setResetKey] = useState(0);
  const initial = from ? valuesOf(from.bv_specification) : DEFAULT_DATASET_VALUES;
  return (
    <DatasetForm
      initial={resetKey === 0 ? initial : DEFAULT_DATASET_VALUES}
      resetKey={resetKey}
      submitLabel="Submit"
      message={message}
      onSubmit={async (values, setError) => {
        setMessage(null);
        try {
          const { dataset } = await createDatasetCall(values, session.csrf_token);
          await queryClient.invalidateQueries();
          setResetKey((k) => k + 1);
          setMessage(
            <Alert variant="success">
              Form submitted successfully!{' '}
              <Link to={`/bv_specifications/${dataset.id}`}>View dataset {dataset.unique_identifier}</Link>
            </Alert>,
          );
        } catch (err) {
          showServerFieldErrors(err, setError);
          setMessage(failure(err));
        }
      }}
    />
  );
}

function useDatasetForm() {
  const id = Number(useParams().id);
  return { id, form: useQuery(datasetFormQuery(id)) };
}

export function CopyDatasetPage() {
  return (
    <RequireSignIn>
      <CopyDataset />
    </RequireSignIn>
  );
}

function CopyDataset() {
  const { id, form } = useDatasetForm();
  if (form.isPending) return <Loading />;
  if (form.error) return <ErrorText>Error: {form.error.message}</ErrorText>;
  return (
    <>
      <h1 className="h3">Copy Dataset</h1>
      <p className="text-muted">
        A copy of dataset {id} ({form.data.bv_specification.unique_identifier}). Submitting creates a new
        dataset; the original is not changed.
      </p>
      <CreateDataset from={form.data} />
    </>
  );
}

export function EditDatasetPage() {
  return (
    <RequireSignIn>
      <EditDataset />
    </RequireSignIn>
  );
}

function EditDataset() {
  const { id, form } = useDatasetForm();
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [message, setMessage] = useState<ReactNode>(null);
  // The version the inputs are based on; "Load their version" replaces it with the one saved since.
  const [base, setBase] = useState<DatasetFormData | null>(null);
  if (form.isPending) return <Loading />;
  if (form.error) return <ErrorText>Error: {form.error.message}</ErrorText>;
  const current = base ?? form.data;

  const conflictAlert = (theirs: DatasetFormData | undefined) => (
    <Alert variant="warning">
      <p className="mb-2">
        Someone else saved this dataset after you opened it, so your changes were not saved. Your edits are
        still in the form.
      </p>
      {theirs ? (
        <Button
          variant="outline-dark"
          size="sm"
          onClick={() => {
            setBase(theirs);
            setMessage(
              <Alert variant="info">
                The form now shows the version saved by the other person (version {theirs.version}). Make your
                changes again and save.
              </Alert>,
            );
          }}
        >
          Load their version
        </Button>
      ) : null}
    </Alert>
  );

  return (
    <>
      <h1 className="h3">Edit Dataset</h1>
      <p className="text-muted">
        Dataset {id} · version {current.version}
      </p>
      <DatasetForm
        initial={valuesOf(current.bv_specification)}
        resetKey={current.version}
        submitLabel="Save Dataset"
        message={message}
        extraActions={
          <Link to={`/bv_specifications/${id}`} className="btn btn-secondary">
            Cancel
          </Link>
        }
        onSubmit={async (values, setError) => {
          setMessage(null);
          try {
            await updateDatasetCall(id, values, current.version, session.csrf_token);
            await queryClient.invalidateQueries();
            void navigate(`/bv_specifications/${id}`);
          } catch (err) {
            if (err instanceof ApiError && err.status === 409) {
              setMessage(conflictAlert((err.body as { current?: DatasetFormData } | undefined)?.current));
              return;
            }
            showServerFieldErrors(err, setError);
            setMessage(failure(err));
          }
        }}
      />
    </>
  );
}
