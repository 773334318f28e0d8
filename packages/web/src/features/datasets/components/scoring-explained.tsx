import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';

const ScoringPopover = lazy(async () => ({ default: (await import('./scoring-popover')).ScoringPopover }));

/**
 * "Scoring explained": a button that opens its popover on a click (a second click closes it) or
 * when reached by the keyboard, and closes it on leaving, a click elsewhere or Escape, as the
 * OverlayTrigger it replaces did. The button is drawn at once; the popover's code comes with the
 * first use (issue 44.6, decision 088).
 */
export function ScoringExplained({ id, children }: { id: string; children: ReactNode }) {
  const [show, setShow] = useState(false);
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // A mouse press focuses the button before its click: the click decides, not the focus.
  const pressing = useRef(false);
  const open = (next: boolean) => {
    if (next) setUsed(true);
    setShow(next);
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className="py-0 btn btn-outline-secondary btn-sm"
        aria-describedby={show ? id : undefined}
        onPointerDown={() => {
          pressing.current = true;
        }}
        onFocus={() => {
          if (!pressing.current) open(true);
        }}
        onBlur={() => {
          pressing.current = false;
          open(false);
        }}
        onClick={() => {
          pressing.current = false;
          open(!show);
        }}
      >
        Scoring explained
      </button>
      {used ? (
        <Suspense fallback={null}>
          <ScoringPopover id={id} target={button.current} show={show} onHide={() => open(false)}>
            {children}
          </ScoringPopover>
        </Suspense>
      ) : null}
    </>
  );
}
