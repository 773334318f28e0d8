import { RequireSignIn } from '../../components/require-sign-in';
import { CreateDataset } from '../../features/dataset-admin/components/create-dataset';

export function NewDatasetPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Enter New BIVAC Dataset</h1>
      <CreateDataset />
    </RequireSignIn>
  );
}
