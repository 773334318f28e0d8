/**
 * Keeps Tab inside an open modal: from the last control it goes to the first, and Shift+Tab from the
 * first to the last. react-bootstrap's own guard only pulls focus back after it has left the dialog
 * (to the browser's address bar, for a keyboard user), which WCAG 2.4.3 counts as lost focus.
 */
const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function wrapFocusInModals(doc: Document = document): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    const modals = doc.querySelectorAll<HTMLElement>('.modal.show[role="dialog"]');
    const modal = modals[modals.length - 1];
    if (!modal) return;
    const focusable = [...modal.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => el.offsetParent !== null || el === doc.activeElement,
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    const active = doc.activeElement;
    const inside = active instanceof HTMLElement && modal.contains(active);
    if (event.shiftKey && (active === first || !inside || active === modal)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !inside)) {
      event.preventDefault();
      first.focus();
    }
  };
  doc.addEventListener('keydown', onKeyDown);
  return () => doc.removeEventListener('keydown', onKeyDown);
}
