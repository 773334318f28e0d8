import { RequireSignIn } from '../../components/require-sign-in';
import { CreateReference } from '../../features/reference-admin/components/create-reference';

export function NewReferencePage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Enter New Reference</h1>
      <CreateReference />
    </RequireSignIn>
  );
}
