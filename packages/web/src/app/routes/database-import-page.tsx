import { RequireSignIn } from '../../components/require-sign-in';
import { DatabaseImportForm } from '../../features/database-import/components/database-import-form';

/** Administrators: load a whole-database file (a backup, or another federation's data). */
export function DatabaseImportPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Import a Database</h1>
      <DatabaseImportForm />
    </RequireSignIn>
  );
}
