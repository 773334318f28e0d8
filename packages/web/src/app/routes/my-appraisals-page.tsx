import { ANY_ROLE } from '@bvdb/contract';
import { RequireSignIn } from '../../components/require-sign-in';
import { MyAppraisalsList } from '../../features/appraisals/components/my-appraisals-list';

/** The datasets waiting for the signed-in assessor (any role may be asked to appraise). */
export function MyAppraisalsPage() {
  return (
    <RequireSignIn roles={ANY_ROLE}>
      <h1 className="h3">My appraisals</h1>
      <MyAppraisalsList />
    </RequireSignIn>
  );
}
