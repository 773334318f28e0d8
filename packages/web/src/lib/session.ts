import { admits, getSession, STAFF, type Access, type Session } from '@bvdb/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from './api-client';
import { useHydrated } from './use-hydrated';
import { everyKey, queryKeys, useInvalidate } from './query-keys';

const signedOut: Session = { user: null, user_id: null, csrf_token: null };

export const sessionQuery = queryOptions({
  queryKey: queryKeys.session,
  queryFn: async () => {
    try {
      return await apiCall(getSession);
    } catch {
      return signedOut;
    }
  },
  staleTime: 30_000,
  // Per visitor (their CSRF token and cookie): never part of a server-rendered, shared page.
  meta: { ssr: false },
});

/** The session as a read (pending while it loads), for screens that wait for it. */
export const useSessionRead = () => useQuery(sessionQuery);

/** Who is signed in; the UI only reflects it, the server enforces it. */
export function useSession(): Session {
  const session = useQuery(sessionQuery).data;
  // Signed out until hydration ends: the server rendered the page for nobody (see useHydrated).
  return (useHydrated() && session) || signedOut;
}

/**
 * After signing in or out: every read again, as the new visitor (staff see drafts, "mine" lists and
 * staff-only reads, so any answer may differ).
 */
export const useInvalidateAfterSignInOrOut = () => useInvalidate(everyKey);

/** Whether the signed-in user's role is one of these (the UI reflects what the server enforces). */
export const hasRole = (session: Session, access: Access): boolean =>
  session.user !== null && admits(access, session.user.role);

/** Administrators and curators: the administration the spec gives a signed-in user (assessors see the public site). */
export const isStaff = (session: Session): boolean => hasRole(session, STAFF);
