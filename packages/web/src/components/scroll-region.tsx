import type { ReactNode } from 'react';

/**
 * A table's horizontal scroll box that a keyboard can reach (WCAG 2.1.1; axe
 * "scrollable-region-focusable", issue 42.9): focusable, a region named by `label`. Bootstrap's
 * `responsive` wrapper without the focus it lacks.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-responsive" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
