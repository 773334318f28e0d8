import { ANY_ROLE } from '@bvdb/contract';
import { Link, useParams } from 'react-router';
import { RequireSignIn } from '../../components/require-sign-in';
import { useMyAppraisal } from '../../features/appraisals/api/my-appraisals';
import { AppraisalForm } from '../../features/appraisals/components/appraisal-form';
import { isNotFound } from '../../lib/api-client';
import { NotFoundPage } from './not-found-page';

/** An id the API takes: a whole number from 1 (anything else is no appraisal's page). */
const appraisalIdOf = (raw: string | undefined) => (raw && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null);

/** One appraisal: the paper and the BIVAC form. */
export function AppraisalPage() {
  const id = appraisalIdOf(useParams().id);
  return (
    <RequireSignIn roles={ANY_ROLE}>{id === null ? <NotFoundPage /> : <Appraisal id={id} />}</RequireSignIn>
  );
}

/** The appraisal, or the app's "Page not found" when no appraisal has this id (the server answers 404). */
function Appraisal({ id }: { id: number }) {
  const { error } = useMyAppraisal(id);
  if (isNotFound(error)) return <NotFoundPage />;
  return (
    <>
      <p className="mb-1">
        <Link to="/appraisals">My appraisals</Link>
      </p>
      <h1 className="h3">BIVAC appraisal</h1>
      <AppraisalForm id={id} />
    </>
  );
}
