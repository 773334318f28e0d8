import { startTransition, useEffect, useState } from 'react';

/** Set once the app's first render (or hydration) has committed: later mounts start hydrated. */
let appHydrated = false;

/** Called when the first page has committed (app/layout.tsx), or at once for a page rendered in the browser. */
export function markAppHydrated(): void {
  appHydrated = true;
}

/**
 * False during server rendering and while React hydrates a server-rendered page, true afterwards.
 * What depends on the visitor (their session) must render the server's markup until then: the
 * session can arrive mid-hydration (React hydrates in slices), and different text is error #418.
 * The switch to true is a transition, so the re-render it causes is sliced like the hydration
 * itself rather than one long task (issue 18: Total Blocking Time on a measurand page).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(appHydrated);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
