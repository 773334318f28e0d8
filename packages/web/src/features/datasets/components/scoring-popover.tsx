import type { ReactNode } from 'react';
import Overlay from 'react-bootstrap/Overlay';
import Popover from 'react-bootstrap/Popover';

/**
 * The "Scoring explained" popover, placed by Popper under its button (scoring-explained.tsx): this
 * code, about 12 KiB gzipped with Popper and the overlay, loads on the button's first use, not with
 * the page (issue 44.6, decision 088).
 */
export function ScoringPopover({
  id,
  target,
  show,
  onHide,
  children,
}: {
  id: string;
  target: HTMLElement | null;
  show: boolean;
  onHide: () => void;
  children: ReactNode;
}) {
  return (
    <Overlay target={target} show={show} placement="right" rootClose onHide={onHide}>
      <Popover id={id}>
        <Popover.Header as="h3">Scoring explained</Popover.Header>
        <Popover.Body>{children}</Popover.Body>
      </Popover>
    </Overlay>
  );
}
