import { lazy, Suspense } from 'react';
import { useHydrated } from '../../../lib/use-hydrated';

// The measurand page's first load is at its budget (decision 088): the section's code and its
// answer are fetched once the page is hydrated, never rendered by the server.
const SectionCode = lazy(() =>
  import('./local-estimates-section').then((m) => ({ default: m.LocalEstimatesSection })),
);

export function LazyLocalEstimates({ measurandId }: { measurandId: number }) {
  const hydrated = useHydrated();
  return hydrated ? (
    <Suspense fallback={null}>
      <SectionCode measurandId={measurandId} />
    </Suspense>
  ) : null;
}
