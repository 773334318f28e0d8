import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A disclosure menu of the navigation bar (WAI-ARIA APG "disclosure navigation"): a button with
 * aria-expanded showing a list of links. Bootstrap's dropdown styles, without its dropdown script
 * and Popper (about 19 KB of JavaScript on every first load, issue 18). Closes on Escape (focus back
 * on its button), a click or focus outside it, and following one of its links.
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
      >
        {title}
      </button>
      <ul
        id={menuId}
        className={`dropdown-menu${end ? ' dropdown-menu-end' : ''}${open ? ' show' : ''}`}
        data-bs-popper="static"
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
