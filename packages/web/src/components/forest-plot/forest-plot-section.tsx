import type { MetaRecord } from '@bvdb/contract';
import { lazy, Suspense } from 'react';
import { useNearViewport } from '../near-viewport';
import { Loading } from '../state-views';

// The chart code is its own chunk, fetched when the section nears the viewport (issue 18: the
// measurand page's first load stays within its JavaScript budget).
const ForestPlots = lazy(() => import('./forest-plots'));

/**
 * "Forest plots" of a measurand's or a simulation's meta-analysis results. Server and first client
 * render show a placeholder (same markup, so hydration matches); the plots mount once the section is
 * within 300 px of the viewport, or at once where IntersectionObserver is missing.
 */
export function ForestPlotSection({
  metas,
  headingLevel = 2,
}: {
  metas: readonly MetaRecord[];
  headingLevel?: 2 | 3;
}) {
  const [ref, near] = useNearViewport<HTMLElement>();
  if (!metas.some((m) => m.datasets.length > 0)) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section ref={ref} aria-labelledby="forest-plots-heading" className="mt-4" data-testid="forest-plots">
      <Heading id="forest-plots-heading" className="h5">
        Forest plots
      </Heading>
      {near ? (
        <Suspense fallback={<Loading text="Loading the forest plots..." />}>
          <ForestPlots metas={metas} />
        </Suspense>
      ) : (
        <p className="text-muted small" style={{ minHeight: 200 }}>
          The forest plots (each study&apos;s estimate, its CI and weight, and the pooled weighted median)
          load here.
        </p>
      )}
    </section>
  );
}
