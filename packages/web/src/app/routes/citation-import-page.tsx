import { RequireSignIn } from '../../components/require-sign-in';
import { CitationImportForm } from '../../features/citation-import/components/citation-import-form';

/** References from a RIS, BibTeX or PubMed file: preview, then create. */
export function CitationImportPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Import References from a Citation File</h1>
      <CitationImportForm />
    </RequireSignIn>
  );
}
