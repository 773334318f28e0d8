import type { DatasetForm as DatasetFormData } from '@bvdb/contract';
import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { useSession } from '../../../lib/session';
import { uploadRawDataCall } from '../api/raw-data';
import { createDatasetCall, useInvalidateAfterDatasetSave } from '../api/save-dataset';
import {
  DEFAULT_DATASET_VALUES,
  sameIdentifierAsSource,
  valuesOf,
  type DatasetFormValues,
} from '../dataset-form-values';
import { DatasetForm, showServerFieldErrors, type DraftMarks } from './dataset-form';
import { submissionFailure } from './submission-failure';
import { paths } from '../../../lib/paths';

/**
 * The create form (and, with `from`, the copy form); after a successful submit it shows the success
 * alert and resets to the defaults. A copy is not sent while it keeps its source's Unique Identifier.
 */
export function CreateDataset({
  from,
  draft,
  rawFile,
  draftMarks,
}: {
  from?: DatasetFormData;
  draft?: Partial<DatasetFormValues>;
  /** The raw results a draft was estimated from: kept with the dataset once it is created. */
  rawFile?: File;
  /** A draft's unassessed fields (to choose) and computed grades (drafts), issue 42.4. */
  draftMarks?: DraftMarks;
}) {
  const session = useSession();
  const invalidateAfterSave = useInvalidateAfterDatasetSave();
  const [message, setMessage] = useState<ReactNode>(null);
  const [resetKey, setResetKey] = useState(0);
  const initial = from
    ? valuesOf(from.bv_specification)
    : draft
      ? { ...DEFAULT_DATASET_VALUES, ...draft }
      : DEFAULT_DATASET_VALUES;
  return (
    <DatasetForm
      initial={resetKey === 0 ? initial : DEFAULT_DATASET_VALUES}
      resetKey={resetKey}
      submitLabel="Submit"
      message={message}
      {...(draftMarks && resetKey === 0 ? { draftMarks } : {})}
      onSubmit={async (values, setError) => {
        setMessage(null);
        const sameAsSource =
          from && resetKey === 0 ? sameIdentifierAsSource(values, from.bv_specification) : null;
        if (sameAsSource) {
          setError('unique_identifier', { message: sameAsSource }, { shouldFocus: true });
          return;
        }
        try {
          const { dataset } = await createDatasetCall(values, session.csrf_token);
          // The raw results go with the dataset they drafted (the first submit only: a reset form
          // is a new dataset). A failure here leaves the dataset saved, and says so.
          const keepFile = rawFile && resetKey === 0 ? rawFile : undefined;
          const fileProblem = keepFile
            ? await uploadRawDataCall(dataset.id, keepFile, session.csrf_token).then(
                () => null,
                (err: unknown) => (err instanceof Error ? err.message : String(err)),
              )
            : null;
          await invalidateAfterSave();
          setResetKey((k) => k + 1);
          const link = <Link to={paths.dataset(dataset.id)}>View dataset {dataset.unique_identifier}</Link>;
          setMessage(
            fileProblem ? (
              <Alert variant="warning">
                The dataset was saved, but its raw-data file was not kept: {fileProblem}. Attach it from the
                dataset&apos;s page. {link}
              </Alert>
            ) : (
              <Alert variant="success">
                Form submitted successfully!
                {keepFile ? ` The raw results file ${keepFile.name} is kept with it.` : ''} {link}
              </Alert>
            ),
          );
        } catch (err) {
          showServerFieldErrors(err, setError);
          setMessage(submissionFailure(err));
        }
      }}
    />
  );
}
