import { RequireSignIn } from '../../components/require-sign-in';
import { AppraisalBoard } from '../../features/appraisals/components/appraisal-board';

/** Curators' board of appraisal rounds by state. */
export function AppraisalBoardPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Appraisal board</h1>
      <AppraisalBoard />
    </RequireSignIn>
  );
}
