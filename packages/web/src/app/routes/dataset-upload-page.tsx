import { RequireSignIn } from '../../components/require-sign-in';
import { DatasetUploadForm } from '../../features/dataset-upload/components/dataset-upload-form';

/** Curators: many datasets from the spreadsheet template, checked, then saved at once. */
export function DatasetUploadPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Upload BIVAC Datasets from a Spreadsheet</h1>
      <DatasetUploadForm />
    </RequireSignIn>
  );
}
