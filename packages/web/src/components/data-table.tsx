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
}: Props<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const [pagination, setPagination] = useState({ pageIndex: 0, pageSize: pageSize ?? 10 });
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
    onPaginationChange: setPagination,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    ...(pageSize ? { getPaginationRowModel: getPaginationRowModel() } : {}),
    ...(globalFilterFn
      ? { globalFilterFn: (row, _col, filter: string) => globalFilterFn(row.original, filter) }
      : {}),
    autoResetPageIndex: true,
    enableSortingRemoval: false,
  });
  const rows = table.getRowModel().rows;
  const filteredCount = table.getFilteredRowModel().rows.length;
  return (
    <>
      <Table striped bordered hover responsive id={id} className="align-middle">
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
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((r) => (
              <tr key={r.id} className={rowClassName?.(r.original)}>
                {r.getVisibleCells().map((c) => (
                  <td key={c.id}>{flexRender(c.column.columnDef.cell, c.getContext())}</td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </Table>
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
