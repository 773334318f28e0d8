import { ADMINS } from '@bvdb/contract';
import { RequireSignIn } from '../../components/require-sign-in';
import { UsersAdmin } from '../../features/users/components/users-admin';

/** Users and their roles (administrators). */
export function UsersPage() {
  return (
    <RequireSignIn roles={ADMINS}>
      <h1 className="h3">Users</h1>
      <UsersAdmin />
    </RequireSignIn>
  );
}
