import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnFiltersState,
  type SortingState,
} from '@tanstack/react-table';
import { useState, type ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { PaginationControl } from './pagination-control';

interface Props<T> {
  caption: ReactNode;
  data: T[];
  columns: ColumnDef<T, unknown>[];
  initialSorting?: SortingState;
  pageSize?: number;
  id?: string;
  rowClassName?: (row: T) => string | undefined;
  globalFilter?: string;
  globalFilterFn?: (row: T, filter: string) => boolean;
  columnFilters?: ColumnFiltersState;
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
function headerLabel(header: unknown): string | undefined {
  return typeof header === 'string' ? header : undefined;
}

/** A client-side table: sorting with aria-sort, optional filtering and paging (page size 10). */
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
  const [ownPagination, setPagination] = useState({ pageIndex: 0, pageSize: pageSize ?? 10 });
  const pagination = page === undefined ? ownPagination : { pageIndex: page - 1, pageSize: pageSize ?? 10 };
  const preview = rowCount !== undefined;
  const table = useReactTable<T>({
    data,
    columns,
    state: {
      sorting,
      ...(pageSize ? { pagination } : {}),
      ...(globalFilter !== undefined ? { globalFilter } : {}),
      ...(columnFilters ? { columnFilters } : {}),
    },
    onSortingChange: setSorting,
    onPaginationChange: (updater) => {
      const next = typeof updater === 'function' ? updater(pagination) : updater;
      if (page === undefined) setPagination(next);
      else if (next.pageIndex + 1 !== page) onPageChange?.(next.pageIndex + 1);
    },
    // Always set: react-table merges new options into the old ones, an absent key would stay true.
    manualPagination: preview,
    manualSorting: preview,
    manualFiltering: preview,
    rowCount,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    ...(pageSize ? { getPaginationRowModel: getPaginationRowModel() } : {}),
    ...(globalFilterFn
      ? { globalFilterFn: (row, _col, filter: string) => globalFilterFn(row.original, filter) }
      : {}),
    // A page kept by the caller is reset by the caller (a URL's page must survive the data arriving).
    autoResetPageIndex: page === undefined,
    enableSortingRemoval: false,
  });
  const rows = table.getRowModel().rows;
  const filteredCount = preview ? table.getRowCount() : table.getFilteredRowModel().rows.length;
  // Past the last page the body stays empty, so a reader paging until an empty table stops there.
  const pastEnd = rows.length === 0 && filteredCount > 0;
  return (
    <>
      <Table striped bordered hover responsive id={id} className="align-middle table-stack">
        <caption className="caption-top">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => {
                const sorted = h.column.getIsSorted();
                const canSort = h.column.getCanSort();
                return (
                  <th
                    key={h.id}
                    scope="col"
                    aria-sort={
                      sorted === 'asc'
                        ? 'ascending'
                        : sorted === 'desc'
                          ? 'descending'
                          : canSort
                            ? 'none'
                            : undefined
                    }
                  >
                    {canSort ? (
                      <button
                        type="button"
                        className="btn btn-link p-0 text-reset fw-bold text-decoration-none"
                        onClick={h.column.getToggleSortingHandler()}
                      >
                        {flexRender(h.column.columnDef.header, h.getContext())}
                        <span aria-hidden="true">
                          {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ' ↕'}
                        </span>
                      </button>
                    ) : (
                      flexRender(h.column.columnDef.header, h.getContext())
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {pastEnd ? null : rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((r) => (
              <tr key={r.id} className={rowClassName?.(r.original)}>
                {r.getVisibleCells().map((c) => (
                  <td key={c.id} data-label={headerLabel(c.column.columnDef.header)}>
                    {flexRender(c.column.columnDef.cell, c.getContext())}
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
          currentPage={table.getState().pagination.pageIndex + 1}
          totalPages={table.getPageCount()}
          onPageChange={(p) => table.setPageIndex(p - 1)}
        />
      ) : null}
    </>
  );
}
