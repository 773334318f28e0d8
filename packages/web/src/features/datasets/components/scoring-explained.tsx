import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';

const loadPopover = () => import('./scoring-popover');
const ScoringPopover = lazy(async () => ({ default: (await loadPopover()).ScoringPopover }));

/**
 * "Scoring explained": until its popover code has arrived (fetched once the page has painted), the
 * same button without it; pressed or focused meanwhile, the popover opens as soon as it is there
 * and the button keeps the focus (issue 44.6, decision 088).
 */
export function ScoringExplained({ id, children }: { id: string; children: ReactNode }) {
  const [wanted, setWanted] = useState<'no' | 'click' | 'focus'>('no');
  const [ready, setReady] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    let live = true;
    const start = () => void loadPopover().then(() => live && setReady(true));
    // After the page's own work: the popover is below nobody's first glance.
    const idle = window.requestIdleCallback?.(start, { timeout: 2000 }) ?? window.setTimeout(start, 200);
    return () => {
      live = false;
      if (window.cancelIdleCallback) window.cancelIdleCallback(idle);
      else window.clearTimeout(idle);
    };
  }, []);
  useEffect(() => {
    if (ready && wanted === 'focus') box.current?.querySelector('button')?.focus();
  }, [ready, wanted]);
  const placeholder = (
    <button
      type="button"
      className="py-0 btn btn-outline-secondary btn-sm"
      onClick={() => setWanted('click')}
      onFocus={() => setWanted((w) => (w === 'no' ? 'focus' : w))}
    >
      Scoring explained
    </button>
  );
  return (
    <span ref={box}>
      {ready ? (
        <Suspense fallback={placeholder}>
          <ScoringPopover id={id} defaultShow={wanted !== 'no'}>
            {children}
          </ScoringPopover>
        </Suspense>
      ) : (
        placeholder
      )}
    </span>
  );
}
