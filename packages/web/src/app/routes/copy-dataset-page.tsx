import { RequireSignIn } from '../../components/require-sign-in';
import { CopyDataset } from '../../features/datasets/components/copy-dataset';

export function CopyDatasetPage() {
  return (
    <RequireSignIn>
      <CopyDataset />
    </RequireSignIn>
  );
}
