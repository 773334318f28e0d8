import { Suspense, type ReactNode } from 'react';
import { useHydrated } from '../lib/use-hydrated';
import { Loading } from './state-views';

/**
 * A form that works only once React runs: the server renders the page around it (its heading and
 * words paint before any script), the form itself comes after hydration, with its code (a lazy
 * component inside), so nothing typed before it works is dropped (issue 44.5, decision 088).
 */
export function AfterHydration({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return hydrated ? <Suspense fallback={<Loading />}>{children}</Suspense> : <Loading />;
}
