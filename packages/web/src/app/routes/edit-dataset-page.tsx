import { RequireSignIn } from '../../components/require-sign-in';
import { EditDataset } from '../../features/datasets/components/edit-dataset';

export function EditDatasetPage() {
  return (
    <RequireSignIn>
      <EditDataset />
    </RequireSignIn>
  );
}
