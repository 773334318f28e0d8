import { RequireSignIn } from '../../components/require-sign-in';
import { CrosswalkImportForm } from '../../features/analytes/components/crosswalk-import-form';

/** Measurands' codes from a crosswalk file (decision 093): preview, then import. */
export function MeasurandCodesImportPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Import Codes from a Crosswalk File</h1>
      <CrosswalkImportForm />
    </RequireSignIn>
  );
}
