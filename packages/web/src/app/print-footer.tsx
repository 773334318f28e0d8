import { useLocation } from 'react-router';
import { useHydrated } from '../lib/use-hydrated';

/**
 * Printed pages carry their address and the date they were printed, so a sheet in a binder can be
 * traced back. Filled in after hydration (the server does not know the date the visitor prints on).
 */
export function PrintFooter() {
  const location = useLocation();
  const hydrated = useHydrated();
  if (!hydrated) return null;
  const url = `${window.location.origin}${location.pathname}${location.search}`;
  const date = new Date().toISOString().slice(0, 10);
  return (
    <p className="print-only small text-muted mt-3 mb-0">
      Printed from {url} on {date}
    </p>
  );
}
