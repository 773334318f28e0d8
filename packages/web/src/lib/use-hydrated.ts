import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False during server rendering and while React hydrates a server-rendered page, true afterwards.
 * What depends on the visitor (their session) must render the server's markup until then: the
 * session can arrive mid-hydration (React hydrates in slices), and different text is error #418.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
