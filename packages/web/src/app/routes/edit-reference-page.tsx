import { useParams } from 'react-router';
import { RequireSignIn } from '../../components/require-sign-in';
import { ErrorText, Loading } from '../../components/state-views';
import { EditReference } from '../../features/reference-admin/components/edit-reference';
import { useReference } from '../../features/references/api/get-references';
import { isNotFound } from '../../lib/api-client';
import { NotFoundPage } from './not-found-page';

export function EditReferencePage() {
  return (
    <RequireSignIn>
      <LoadedReference />
    </RequireSignIn>
  );
}

function LoadedReference() {
  const id = Number(useParams().id);
  const ref = useReference(id);
  if (ref.isPending) return <Loading />;
  if (isNotFound(ref.error)) return <NotFoundPage />;
  if (ref.error) return <ErrorText>Error loading reference</ErrorText>;
  return <EditReference reference={ref.data.reference} />;
}
