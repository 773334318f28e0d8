import { useState, type MouseEvent, type ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { PaginationControl } from './pagination-control';
import {
  canSort,
  filterRows,
  nextSorting,
  sortRows,
  textOf,
  toRows,
  valueOf,
  type ColumnFilter,
  type DataTableColumn,
  type SortingState,
} from './data-table-model';

export type { ColumnFilter, DataTableColumn, SortingState } from './data-table-model';

interface Props<T> {
  caption: ReactNode;
  data: T[];
  columns: DataTableColumn<T>[];
  initialSorting?: SortingState;
  pageSize?: number;
  id?: string;
  rowClassName?: (row: T) => string | undefined;
  globalFilter?: string;
  globalFilterFn?: (row: T, filter: string) => boolean;
  columnFilters?: ColumnFilter[];
  empty?: ReactNode;
  /** The page (from 1) when the caller keeps it, e.g. in the URL; with onPageChange. */
  page?: number;
  onPageChange?: (page: number) => void;
  /**
   * The data is already one page, sorted and filtered (a server-rendered first paint): `rowCount`
   * rows in all. The table shows it as it is until it gets the whole list.
   */
  rowCount?: number;
}

/** A plain-text header names its cells on a phone, where rows stack as cards (styles.css, .table-stack). */
function headerLabel(header: ReactNode): string | undefined {
  return typeof header === 'string' ? header : undefined;
}

/** What a cell shows when its column has no `cell`: the value as text. */
function defaultCell(value: unknown): ReactNode {
  return value === null || value === undefined ? null : textOf(value);
}

/**
 * A client-side table: sorting with aria-sort, optional filtering and paging (page size 10). Its
 * model (data-table-model.ts) is ours, a few dozen lines doing what the pages asked of
 * @tanstack/react-table, which weighed 13.5 KiB gzipped in three pages' first load (issue 44.6,
 * decision 088).
 */
export function DataTable<T>({
  caption,
  data,
  columns,
  initialSorting = [],
  pageSize,
  id,
  rowClassName,
  globalFilter,
  globalFilterFn,
  columnFilters,
  empty = 'No results available',
  page,
  onPageChange,
  rowCount,
}: Props<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const [ownPageIndex, setOwnPageIndex] = useState(0);
  const preview = rowCount !== undefined;
  const size = pageSize ?? 10;

  const all = toRows(data);
  const filtered = preview ? all : filterRows(all, columns, columnFilters, globalFilter, globalFilterFn);
  const sorted = preview ? filtered : sortRows(filtered, columns, sorting);

  // A page the table keeps itself goes back to the first when the rows change (new data, filter or
  // sort), not on the first render; a page kept by the caller is reset by the caller (a URL's page
  // must survive the data arriving).
  const filterKey = JSON.stringify([globalFilter ?? null, columnFilters ?? []]);
  const [seen, setSeen] = useState({ data, filterKey, sorting });
  if (
    page === undefined &&
    (seen.data !== data || seen.filterKey !== filterKey || seen.sorting !== sorting)
  ) {
    setSeen({ data, filterKey, sorting });
    setOwnPageIndex(0);
  }
  const pageIndex = page === undefined ? ownPageIndex : page - 1;

  const rows = pageSize && !preview ? sorted.slice(pageIndex * size, (pageIndex + 1) * size) : sorted;
  const filteredCount = preview ? rowCount : filtered.length;
  const pageCount = Math.ceil(filteredCount / size);
  // Past the last page the body stays empty, so a reader paging until an empty table stops there.
  const pastEnd = rows.length === 0 && filteredCount > 0;
  const setPageIndex = (next: number) => {
    const index = Math.max(0, next);
    if (page === undefined) setOwnPageIndex(index);
    else if (index + 1 !== page) onPageChange?.(index + 1);
  };
  const toggleSorting = (column: DataTableColumn<T>, e: MouseEvent) =>
    setSorting((old) => nextSorting(old, column, filtered, e.shiftKey));

  return (
    <>
      <Table striped bordered hover responsive id={id} className="align-middle table-stack">
        <caption className="caption-top">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const sortable = canSort(column);
              const entry = sortable ? sorting.find((s) => s.id === column.id) : undefined;
              const sorted = entry ? (entry.desc ? 'desc' : 'asc') : false;
              return (
                <th
                  key={column.id}
                  scope="col"
                  aria-sort={
                    sorted === 'asc'
                      ? 'ascending'
                      : sorted === 'desc'
                        ? 'descending'
                        : sortable
                          ? 'none'
                          : undefined
                  }
                >
                  {sortable ? (
                    <button
                      type="button"
                      className="btn btn-link p-0 text-reset fw-bold text-decoration-none"
                      onClick={(e) => toggleSorting(column, e)}
                    >
                      {column.header}
                      <span aria-hidden="true">
                        {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ' ↕'}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {pastEnd ? null : rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map(({ original, index }) => (
              <tr key={index} className={rowClassName?.(original)}>
                {columns.map((column) => (
                  <td key={column.id} data-label={headerLabel(column.header)}>
                    {column.cell
                      ? column.cell({ row: { original } })
                      : defaultCell(valueOf(column, original))}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </Table>
      {pastEnd ? <p className="text-muted">{empty}</p> : null}
      {pageSize && filteredCount > 0 ? (
        <PaginationControl
          totalRecords={filteredCount}
          currentPage={pageIndex + 1}
          totalPages={pageCount}
          onPageChange={(p) => setPageIndex(p - 1)}
        />
      ) : null}
    </>
  );
}
