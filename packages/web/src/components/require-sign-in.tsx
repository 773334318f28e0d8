import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Loading } from './state-views';
import { sessionQuery } from '../lib/session';
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

/** Administrators' screens: "Not Authorised" without a user, nothing while the session loads. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const session = useQuery(sessionQuery);
  const hydrated = useHydrated();
  if (!hydrated || session.isPending) return <Loading />;
  if (!session.data?.user) return <NotAuthorised />;
  return <>{children}</>;
}
