import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Popover from 'react-bootstrap/Popover';

/**
 * The "Scoring explained" button with its popover: Popper and the overlay code (about 12 KiB
 * gzipped), loaded after the page (scoring-explained.tsx), not with it (issue 44.6, decision 088).
 */
export function ScoringPopover({
  id,
  defaultShow,
  children,
}: {
  id: string;
  defaultShow: boolean;
  children: ReactNode;
}) {
  const popover = (
    <Popover id={id}>
      <Popover.Header as="h3">Scoring explained</Popover.Header>
      <Popover.Body>{children}</Popover.Body>
    </Popover>
  );
  return (
    <OverlayTrigger
      trigger={['click', 'focus']}
      placement="bottom"
      overlay={popover}
      rootClose
      defaultShow={defaultShow}
    >
      <Button size="sm" variant="outline-secondary" className="py-0">
        Scoring explained
      </Button>
    </OverlayTrigger>
  );
}
