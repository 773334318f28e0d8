import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Loading } from './state-views';
import { STAFF, type Role } from '@bvdb/contract';
import { hasRole, useSessionRead } from '../lib/session';
import { useHydrated } from '../lib/use-hydrated';

/** The spec's "Not Authorised" (section 6), as a page: a heading and the way to sign in. */
export function NotAuthorised() {
  return (
    <section className="my-3" aria-labelledby="not-authorised">
      <h1 className="h3" id="not-authorised">
        Not Authorised
      </h1>
      <p>
        You need to sign in to see this page: <Link to="/users/sign_in">Log in</Link>.
      </p>
    </section>
  );
}

/** A signed-in user whose role does not open this page. */
function NotForYourRole() {
  return (
    <section className="my-3" aria-labelledby="not-authorised">
      <h1 className="h3" id="not-authorised">
        Not Authorised
      </h1>
      <p>Your role does not give access to this page.</p>
    </section>
  );
}

/**
 * Administrators' screens: "Not Authorised" without a user or for another role (curators and
 * administrators unless `roles` says otherwise), nothing while the session loads.
 */
export function RequireSignIn({ children, roles = STAFF }: { children: ReactNode; roles?: readonly Role[] }) {
  const session = useSessionRead();
  const hydrated = useHydrated();
  if (!hydrated || session.isPending) return <Loading />;
  if (!session.data?.user) return <NotAuthorised />;
  if (!hasRole(session.data, roles)) return <NotForYourRole />;
  return <>{children}</>;
}
