import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import { Link } from 'react-router';

/**
 * A disclosure menu of the navigation bar (WAI-ARIA APG "disclosure navigation"): a button with
 * aria-expanded showing a list of links. Bootstrap's dropdown styles, without its dropdown script
 * and Popper (about 19 KB of JavaScript on every first load, issue 18). Closes on Escape (focus back
 * on its button), a click or focus outside it, and following one of its links. The keys of the menu
 * button pattern (issue 27.10): ArrowDown/ArrowUp on the button open the menu on its first/last item;
 * in the menu they move between the items (wrapping), Home/End go to the first/last one; the page
 * does not scroll.
 */
export function NavMenu({
  title,
  end = false,
  children,
}: {
  title: string;
  end?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLLIElement>(null);
  const menuId = useId();
  /** Where focus goes once the menu is shown (set by an arrow key on the button). */
  const [focusOnOpen, setFocusOnOpen] = useState<'first' | 'last' | null>(null);
  const items = () => [...(ref.current?.querySelectorAll<HTMLElement>('ul .dropdown-item') ?? [])];
  useEffect(() => {
    if (!open || !focusOnOpen) return;
    const list = items();
    (focusOnOpen === 'first' ? list[0] : list.at(-1))?.focus();
    setFocusOnOpen(null);
  }, [open, focusOnOpen]);
  const onButtonKey = (e: ReactKeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    setOpen(true);
    setFocusOnOpen(e.key === 'ArrowDown' ? 'first' : 'last');
  };
  const onMenuKey = (e: ReactKeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    if (e.key === 'ArrowDown') go(at + 1);
    else if (e.key === 'ArrowUp') go(at < 0 ? list.length - 1 : at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(list.length - 1);
  };
  useEffect(() => {
    if (!open) return undefined;
    const outside = (e: Event) => {
      if (e.target instanceof Node && !ref.current?.contains(e.target)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      ref.current?.querySelector('button')?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  return (
    <li ref={ref} className="nav-item dropdown">
      <button
        type="button"
        className="nav-link dropdown-toggle"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onButtonKey}
      >
        {title}
      </button>
      <ul
        id={menuId}
        className={`dropdown-menu${end ? ' dropdown-menu-end' : ''}${open ? ' show' : ''}`}
        data-bs-popper="static"
        onKeyDown={onMenuKey}
        onClick={(e) => {
          if (e.target instanceof Element && e.target.closest('a, button')) setOpen(false);
        }}
      >
        {children}
      </ul>
    </li>
  );
}

export function NavMenuLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <li>
      <Link className="dropdown-item" to={to}>
        {children}
      </Link>
    </li>
  );
}

export function NavMenuDivider() {
  return (
    <li role="separator">
      <hr className="dropdown-divider" />
    </li>
  );
}
