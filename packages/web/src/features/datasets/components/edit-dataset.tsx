import type { DatasetForm as DatasetFormData } from '@bvdb/contract';
import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link, useNavigate } from 'react-router';
import { ErrorText, Loading } from '../../../components/state-views';
import { ApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';
import { updateDatasetCall, useInvalidateAfterDatasetSave } from '../api/save-dataset';
import { valuesOf } from '../dataset-form-values';
import { useDatasetForm } from '../use-dataset-form';
import { DatasetForm, showServerFieldErrors } from './dataset-form';
import { submissionFailure } from './submission-failure';
import { paths } from '../../../lib/paths';

/** The edit form of the dataset of the page's `:id`; a save over someone else's offers their version. */
export function EditDataset() {
  const { id, form } = useDatasetForm();
  const session = useSession();
  const invalidateAfterSave = useInvalidateAfterDatasetSave();
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
          <Link to={paths.dataset(id)} className="btn btn-secondary">
            Cancel
          </Link>
        }
        onSubmit={async (values, setError) => {
          setMessage(null);
          try {
            await updateDatasetCall(id, values, current.version, session.csrf_token);
            await invalidateAfterSave();
            void navigate(paths.dataset(id));
          } catch (err) {
            if (err instanceof ApiError && err.status === 409) {
              setMessage(conflictAlert((err.body as { current?: DatasetFormData } | undefined)?.current));
              return;
            }
            showServerFieldErrors(err, setError);
            setMessage(submissionFailure(err));
          }
        }}
      />
    </>
  );
}
