import { lazy, Suspense, useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { CiteInput } from './cite-dialog';

// Loaded on the first click: the dialog and the RIS/BibTeX writers stay out of the first download.
const CiteDialog = lazy(() => import('./cite-dialog'));

/** A "Cite this estimate" button; `label` tells one estimate's button from another's to a screen reader. */
export function CiteButton({
  input,
  label,
  compact = false,
}: {
  /** What to cite, read when the button is pressed (a promise when it needs an answer first). */
  input: () => CiteInput | Promise<CiteInput>;
  label?: string;
  /** A link-like button for a table cell; otherwise an outlined button. */
  compact?: boolean;
}) {
  const [open, setOpen] = useState<CiteInput | null>(null);
  return (
    <>
      <Button
        size="sm"
        variant={compact ? 'link' : 'outline-primary'}
        className={compact ? 'd-print-none p-0 text-start' : 'd-print-none'}
        aria-label={label ? `Cite this estimate: ${label}` : undefined}
        aria-haspopup="dialog"
        onClick={() => void Promise.resolve(input()).then(setOpen)}
      >
        Cite this estimate
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <CiteDialog input={open} onHide={() => setOpen(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
