import { ADMINS } from '@bvdb/contract';
import { RequireSignIn } from '../../components/require-sign-in';
import { AgreementFigures } from '../../features/appraisals/components/agreement-figures';

/** Agreement figures of the first two appraisals (administrators). */
export function AppraisalAgreementPage() {
  return (
    <RequireSignIn roles={ADMINS}>
      <h1 className="h3">Appraisal agreement</h1>
      <AgreementFigures />
    </RequireSignIn>
  );
}
