import { Link } from 'react-router';
import { RequireSignIn } from '../../components/require-sign-in';
import { CreateDataset } from '../../features/dataset-admin/components/create-dataset';

export function NewDatasetPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Enter New BIVAC Dataset</h1>
      <p>
        Many datasets from one paper?{' '}
        <Link to="/bv_specifications/upload">Upload them from a spreadsheet</Link>.
      </p>
      <CreateDataset />
    </RequireSignIn>
  );
}
