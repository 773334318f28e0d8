import { RequireSignIn } from '../../components/require-sign-in';
import { MailingListMembers } from '../../features/mailing-list/components/mailing-list-members';

/** The mailing-list admin form (spec section 2): Email address and Name; success says "Worked". */
export function MailingListPage() {
  return (
    <RequireSignIn>
      <h1 className="h3">Mailing List</h1>
      <MailingListMembers />
    </RequireSignIn>
  );
}
