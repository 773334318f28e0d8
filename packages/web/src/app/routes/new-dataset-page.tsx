import { Link, useLocation } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import { RequireSignIn } from '../../components/require-sign-in';
import { CreateDataset } from '../../features/datasets/components/create-dataset';
import { draftValuesOf } from '../../features/datasets/dataset-form-values';
import { QUALITY_ITEMS } from '@bvdb/domain';
import {
  ESTIMATION_DRAFT_STATE,
  ESTIMATION_FILE_STATE,
  UNASSESSED_BY_ESTIMATOR,
} from '../../features/estimations/draft-dataset';

export function NewDatasetPage() {
  // A draft from the estimation report arrives as router state; opened directly, the spec's defaults.
  const state = useLocation().state as Record<string, unknown> | null;
  const draft = (state?.[ESTIMATION_DRAFT_STATE] as { values?: unknown } | undefined)?.values;
  // The file the report was estimated from, kept with the dataset once it is saved (staff only).
  const file = state?.[ESTIMATION_FILE_STATE];
  const rawFile = draft && file instanceof File ? file : undefined;
  const values = draft ? draftValuesOf(draft) : undefined;
  // The fields the estimator did not assess and left empty are the curator's to choose; the grades it
  // computed are drafts (issue 42.4).
  const draftMarks = values
    ? {
        mustChoose: UNASSESSED_BY_ESTIMATOR.filter((k) => (values[k] ?? '') === ''),
        drafted: QUALITY_ITEMS.map((i) => i.key).filter(
          (k) => !(UNASSESSED_BY_ESTIMATOR as readonly string[]).includes(k) && (values[k] ?? '') !== '',
        ),
      }
    : undefined;
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
          draft BIVAC answers for QI 6–13 (their evidence is in the Scoring Comment). What the estimator did
          not assess starts empty: choose QI 1–5 and QI 14, the state of well-being, the ethnicity and the
          sex, as well as the measurand, reference and matrix; check every draft grade, then submit.
          {rawFile ? (
            <>
              {' '}
              The raw results file <strong>{rawFile.name}</strong> is kept with the dataset, visible to staff
              only.
            </>
          ) : null}
        </Alert>
      ) : null}
      <CreateDataset
        {...(values ? { draft: values } : {})}
        {...(rawFile ? { rawFile } : {})}
        {...(draftMarks ? { draftMarks } : {})}
      />
    </RequireSignIn>
  );
}
