import { lazy, Suspense, useState, type ComponentProps } from 'react';
import { WhenNearViewport } from '../../../components/near-viewport';
import type { ApsModal } from './aps-modal';
import type { IndividualityCalculators } from './individuality-calculators';
import type { RcvModal } from './rcv-modal';

// The calculators' code is fetched when first needed, not with the page that offers them: a modal
// on its first opening, the inline calculators when they near the viewport (issue 18: a measurand
// page's first load within 150 KB of JavaScript).
const ApsModalCode = lazy(() => import('./aps-modal').then((m) => ({ default: m.ApsModal })));
const RcvModalCode = lazy(() => import('./rcv-modal').then((m) => ({ default: m.RcvModal })));
const IndividualityCode = lazy(() =>
  import('./individuality-calculators').then((m) => ({ default: m.IndividualityCalculators })),
);

/** Mounted from its first opening on, so it closes with its animation like any modal. */
function useOpenedOnce(show: boolean): boolean {
  const [opened, setOpened] = useState(show);
  if (show && !opened) setOpened(true);
  return opened;
}

export function LazyApsModal(props: ComponentProps<typeof ApsModal>) {
  const opened = useOpenedOnce(props.show);
  return opened ? (
    <Suspense fallback={null}>
      <ApsModalCode {...props} />
    </Suspense>
  ) : null;
}

export function LazyRcvModal(props: ComponentProps<typeof RcvModal>) {
  const opened = useOpenedOnce(props.show);
  return opened ? (
    <Suspense fallback={null}>
      <RcvModalCode {...props} />
    </Suspense>
  ) : null;
}

export function LazyIndividualityCalculators(props: ComponentProps<typeof IndividualityCalculators>) {
  const placeholder = (
    <p className="text-muted small calculators-placeholder">
      The individuality and set-point calculators load here.
    </p>
  );
  return (
    <WhenNearViewport placeholder={placeholder}>
      <Suspense fallback={placeholder}>
        <IndividualityCode {...props} />
      </Suspense>
    </WhenNearViewport>
  );
}
