import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Loading } from './state-views';
import { sessionQuery } from '../lib/session';

/** Administrators' screens: "Not Authorised" without a user (spec section 6), nothing while the session loads. */
export function RequireSignIn({ children }: { children: ReactNode }) {
  const session = useQuery(sessionQuery);
  if (session.isPending) return <Loading />;
  if (!session.data?.user) return <p className="my-3">Not Authorised</p>;
  return <>{children}</>;
}
