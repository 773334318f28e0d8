import Pagination from 'react-bootstrap/Pagination';

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
      <Pagination className="mb-0">
        <Pagination.Prev disabled={currentPage <= 1} onClick={() => onPageChange(currentPage - 1)}>
          Previous
        </Pagination.Prev>
        {pages.map((p) => (
          <Pagination.Item
            key={p}
            active={p === currentPage}
            onClick={() => onPageChange(p)}
            aria-label={`Page ${p}`}
          >
            {p}
          </Pagination.Item>
        ))}
        <Pagination.Next disabled={currentPage >= totalPages} onClick={() => onPageChange(currentPage + 1)}>
          Next
        </Pagination.Next>
      </Pagination>
    </nav>
  );
}
