import { RequireSignIn } from '../../components/require-sign-in';
import { EditDataset } from '../../features/dataset-admin/components/edit-dataset';

export function EditDatasetPage() {
  return (
    <RequireSignIn>
      <EditDataset />
    </RequireSignIn>
  );
}
