import { useId, type ReactNode } from 'react';

/**
 * Bootstrap's accordion markup with a plain toggle (no slide): react-bootstrap's Accordion and its
 * transition code cost about 5 KiB gzipped of a page's first load (issue 44.6, decision 088), as
 * meta-summary.tsx found for the measurand page (issue 18). The closed items' bodies stay in the
 * document, hidden by Bootstrap's `.collapse`, as react-bootstrap's do.
 */
export function PlainAccordion({ flush = false, children }: { flush?: boolean; children: ReactNode }) {
  return <div className={flush ? 'accordion accordion-flush' : 'accordion'}>{children}</div>;
}

/** One item: `open` and `onToggle` come from the list, which decides how many stay open. */
export function PlainAccordionItem({
  header,
  as: Heading = 'h2',
  open,
  onToggle,
  children,
}: {
  header: ReactNode;
  as?: 'h2' | 'h3' | 'h4';
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const bodyId = useId();
  return (
    <div className="accordion-item">
      <Heading className="accordion-header">
        <button
          type="button"
          className={`accordion-button${open ? '' : ' collapsed'}`}
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          {header}
        </button>
      </Heading>
      <div id={bodyId} className={`accordion-collapse collapse${open ? ' show' : ''}`}>
        <div className="accordion-body">{children}</div>
      </div>
    </div>
  );
}
