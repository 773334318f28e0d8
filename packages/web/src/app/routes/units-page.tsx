import { RequireSignIn } from '../../components/require-sign-in';
import { UnitsEditor } from '../../features/units/components/units-editor';

/** Units of measurement: how many datasets use each, add, rename, delete when unused. */
export function UnitsPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Units</h1>
      <UnitsEditor />
    </RequireSignIn>
  );
}
