import type { KeyboardEvent, MouseEvent, ReactNode } from 'react';

interface Props {
  totalRecords: number;
  currentPage: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}

/** Pages around the current one, with the first and last always reachable. */
export function pageWindow(current: number, total: number, width = 5): number[] {
  const start = Math.max(1, Math.min(current - Math.floor(width / 2), total - width + 1));
  const end = Math.min(total, start + width - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

/**
 * One page link, as react-bootstrap's Pagination.Item draws it (the same markup and keys: Enter and
 * Space) without its code in the lists' first load (issue 44.6, decision 088): the current or an
 * unavailable page is a span, the others a link acting as a button.
 */
function PageItem({
  active = false,
  disabled = false,
  label,
  onSelect,
  children,
}: {
  active?: boolean;
  disabled?: boolean;
  label?: string;
  onSelect: () => void;
  children: ReactNode;
}) {
  const className = `page-item${active ? ' active' : ''}${disabled ? ' disabled' : ''}`;
  if (active || disabled)
    return (
      <li className={className}>
        <span className="page-link" aria-label={label}>
          {children}
          {active ? <span className="visually-hidden">(current)</span> : null}
        </span>
      </li>
    );
  const select = (e: MouseEvent | KeyboardEvent) => {
    e.preventDefault();
    onSelect();
  };
  return (
    <li className={className}>
      <a
        className="page-link"
        role="button"
        tabIndex={0}
        href="#"
        aria-label={label}
        onClick={select}
        onKeyDown={(e) => {
          if (e.key === ' ') select(e);
        }}
      >
        {children}
      </a>
    </li>
  );
}

/** Spec section 2: Total Records, Current Page, Total Pages, previous/next and numbered pages. */
export function PaginationControl({ totalRecords, currentPage, totalPages, onPageChange }: Props) {
  const pages = pageWindow(currentPage, Math.max(totalPages, 1));
  return (
    <nav aria-label="Pagination" className="d-flex flex-wrap align-items-center gap-3 my-3">
      <span>
        Total Records: <strong>{totalRecords}</strong>
      </span>
      <span>
        Current Page: <strong>{currentPage}</strong>
      </span>
      <span>
        Total Pages: <strong>{totalPages}</strong>
      </span>
      <ul className="pagination mb-0">
        <PageItem disabled={currentPage <= 1} onSelect={() => onPageChange(currentPage - 1)}>
          <span aria-hidden="true">Previous</span>
          <span className="visually-hidden">Previous</span>
        </PageItem>
        {pages.map((p) => (
          <PageItem key={p} active={p === currentPage} onSelect={() => onPageChange(p)} label={`Page ${p}`}>
            {p}
          </PageItem>
        ))}
        <PageItem disabled={currentPage >= totalPages} onSelect={() => onPageChange(currentPage + 1)}>
          <span aria-hidden="true">Next</span>
          <span className="visually-hidden">Next</span>
        </PageItem>
      </ul>
    </nav>
  );
}
