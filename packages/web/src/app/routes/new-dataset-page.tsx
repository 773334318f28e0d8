import { Link, useLocation } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import { RequireSignIn } from '../../components/require-sign-in';
import { CreateDataset } from '../../features/datasets/components/create-dataset';
import { draftValuesOf } from '../../features/datasets/dataset-form-values';
import { ESTIMATION_DRAFT_STATE, ESTIMATION_FILE_STATE } from '../../features/estimations/draft-dataset';

export function NewDatasetPage() {
  // A draft from the estimation report arrives as router state; opened directly, the spec's defaults.
  const state = useLocation().state as Record<string, unknown> | null;
  const draft = (state?.[ESTIMATION_DRAFT_STATE] as { values?: unknown } | undefined)?.values;
  // The file the report was estimated from, kept with the dataset once it is saved (staff only).
  const file = state?.[ESTIMATION_FILE_STATE];
  const rawFile = draft && file instanceof File ? file : undefined;
  return (
    <RequireSignIn>
      <h1 className="h3">Enter New BIVAC Dataset</h1>
      <p>
        Many datasets from one paper?{' '}
        <Link to="/bv_specifications/upload">Upload them from a spreadsheet</Link>.
      </p>
      {draft ? (
        <Alert variant="info">
          Pre-filled from your estimation report: the numbers, the sampling the dates show, the method and the
          draft BIVAC answers for QI 6–13 (their evidence is in the Scoring Comment). Choose the measurand,
          reference and matrix, check every grade, then submit.
          {rawFile ? (
            <>
              {' '}
              The raw results file <strong>{rawFile.name}</strong> is kept with the dataset, visible to staff
              only.
            </>
          ) : null}
        </Alert>
      ) : null}
      <CreateDataset {...(draft ? { draft: draftValuesOf(draft) } : {})} {...(rawFile ? { rawFile } : {})} />
    </RequireSignIn>
  );
}
