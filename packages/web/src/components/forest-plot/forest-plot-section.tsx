import type { MetaRecord } from '@bvdb/contract';
import { lazy, Suspense } from 'react';
import { useNearViewport } from '../near-viewport';
import { Loading } from '../state-views';

// The chart code is its own chunk, fetched when the section nears the viewport (issue 18: the
// measurand page's first load stays within its JavaScript budget).
const ForestPlots = lazy(() => import('./forest-plots'));

/**
 * Why a weighted median can sit below the study that carries most of the weight (issue 27.9): the
 * engine interpolates between the two studies around the half of the weight, as R's
 * matrixStats::weightedMedian does (domain weightedMedian).
 */
export const WEIGHTED_MEDIAN_NOTE =
  'The weighted median is interpolated between the studies on either side of half the total weight, so it can lie below a study that carries most of the weight (a CVI of 4.6 beside a study at 4.7 with 92 % of it). Method: interpolated weighted median (R matrixStats::weightedMedian, H. Bengtsson) of the EFLM meta-analysis approach (Aarsand AK et al., Clin Chem Lab Med 2018;56:1629-36).';

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
      <p className="small" data-testid="weighted-median-note">
        {WEIGHTED_MEDIAN_NOTE}
      </p>
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
