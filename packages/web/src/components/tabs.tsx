import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDef {
  key: string;
  title: string;
  content: ReactNode;
}

/**
 * Bootstrap's tabs as plain markup (`.nav-tabs`, `.tab-pane.fade`), the WAI-ARIA tabs pattern:
 * arrows, Home and End move between the tabs, only the active one is in the tab order, and only the
 * active pane is mounted. It replaces react-bootstrap's Tabs, whose Nav, transition and id code was
 * ~5 KiB of a public page's first load (decision 075); the pane still fades in as Bootstrap's does.
 */
export function Tabs({ tabs, className }: { tabs: TabDef[]; className?: string }) {
  const base = useId();
  const [active, setActive] = useState(tabs[0]?.key);
  // The pane mounts without `show` and gets it a frame later, so Bootstrap's fade plays.
  const [shown, setShown] = useState(true);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  useEffect(() => {
    if (shown) return;
    const frame = requestAnimationFrame(() => setShown(true));
    return () => cancelAnimationFrame(frame);
  }, [shown]);

  const select = (key: string) => {
    if (key === active) return;
    setActive(key);
    setShown(false);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const at = tabs.findIndex((t) => t.key === active);
    const to =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? (at + 1) % tabs.length
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? (at - 1 + tabs.length) % tabs.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? tabs.length - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    const key = tabs[to]!.key;
    select(key);
    buttons.current.get(key)?.focus();
  };

  const current = tabs.find((t) => t.key === active);
  return (
    <>
      <ul className={`nav nav-tabs ${className ?? ''}`.trim()} role="tablist" onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <li key={t.key} className="nav-item" role="presentation">
            <button
              ref={(el) => {
                if (el) buttons.current.set(t.key, el);
                else buttons.current.delete(t.key);
              }}
              type="button"
              id={`${base}-tab-${t.key}`}
              role="tab"
              aria-controls={`${base}-tabpane-${t.key}`}
              aria-selected={t.key === active}
              tabIndex={t.key === active ? undefined : -1}
              className={`nav-link${t.key === active ? ' active' : ''}`}
              onClick={() => select(t.key)}
            >
              {t.title}
            </button>
          </li>
        ))}
      </ul>
      <div className="tab-content">
        {current ? (
          <div
            role="tabpanel"
            id={`${base}-tabpane-${current.key}`}
            aria-labelledby={`${base}-tab-${current.key}`}
            className={`fade tab-pane active${shown ? ' show' : ''}`}
          >
            {current.content}
          </div>
        ) : null}
      </div>
    </>
  );
}
