import { ANY_ROLE } from '@bvdb/contract';
import { Link, useParams } from 'react-router';
import { RequireSignIn } from '../../components/require-sign-in';
import { AppraisalForm } from '../../features/appraisals/components/appraisal-form';

/** One appraisal: the paper and the BIVAC form. */
export function AppraisalPage() {
  const id = Number(useParams().id);
  return (
    <RequireSignIn roles={ANY_ROLE}>
      <p className="mb-1">
        <Link to="/appraisals">My appraisals</Link>
      </p>
      <h1 className="h3">BIVAC appraisal</h1>
      <AppraisalForm id={id} />
    </RequireSignIn>
  );
}
