import type { ReactNode } from 'react';

// The table model of components/data-table.tsx: what @tanstack/react-table 8.21 did for our pages
// (its `ColumnDef` subset they used, its sorting functions and first directions, its string filter),
// kept the same so no table sorts or filters differently (issue 44.6, decision 088).

/** One column: `id` names it in sorting and filters; its value comes from `accessorKey` or `accessorFn`. */
export interface DataTableColumn<T> {
  id: string;
  header: ReactNode;
  accessorKey?: keyof T & string;
  accessorFn?: (row: T) => unknown;
  cell?: (context: { row: { original: T } }) => ReactNode;
  /** Default: chosen from the values (`auto`): alphanumeric when a string holds digits, else text or basic. */
  sortingFn?: 'text' | 'basic' | 'alphanumeric';
  /** Default 1: undefined values sort after the others ascending, before them descending; 'last' always after. */
  sortUndefined?: 'first' | 'last' | 1 | -1 | false;
  /** Default true (with a value to sort by). */
  enableSorting?: boolean;
}

export type SortingState = { id: string; desc: boolean }[];
export interface ColumnFilter {
  id: string;
  value: unknown;
}
/** A row and its place in the data (the tie-breaker of every sort). */
export interface Row<T> {
  original: T;
  index: number;
}

export const toRows = <T>(data: T[]): Row<T>[] => data.map((original, index) => ({ original, index }));

export function valueOf<T>(column: DataTableColumn<T>, row: T): unknown {
  if (column.accessorFn) return column.accessorFn(row);
  return column.accessorKey === undefined ? undefined : row[column.accessorKey];
}

export const canSort = <T>(column: DataTableColumn<T>) =>
  column.enableSorting !== false && (column.accessorFn !== undefined || column.accessorKey !== undefined);

/** A value as text, as `.toString()` gives it (the columns hold strings, numbers and booleans). */
export function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v) ?? '';
}

function asText(a: unknown): string {
  if (typeof a === 'number') return Number.isFinite(a) ? String(a) : '';
  return typeof a === 'string' ? a : '';
}

function compareBasic(a: unknown, b: unknown): number {
  // Values of one column compare as they are, numbers with numbers, strings with strings.
  return a === b ? 0 : (a as number) > (b as number) ? 1 : -1;
}

const splitDigits = /([0-9]+)/gm;

/** Digits compared as numbers, the rest as text: "Item 9" before "Item 10". */
function compareAlphanumeric(aText: string, bText: string): number {
  const a = aText.split(splitDigits).filter(Boolean);
  const b = bText.split(splitDigits).filter(Boolean);
  while (a.length && b.length) {
    const aa = a.shift()!;
    const bb = b.shift()!;
    const an = parseInt(aa, 10);
    const bn = parseInt(bb, 10);
    const combo = [an, bn].sort();
    if (isNaN(combo[0]!)) {
      if (aa > bb) return 1;
      if (bb > aa) return -1;
      continue;
    }
    if (isNaN(combo[1]!)) return isNaN(an) ? -1 : 1;
    if (an > bn) return 1;
    if (bn > an) return -1;
  }
  return a.length - b.length;
}

type Compare = (a: unknown, b: unknown) => number;
const sortingFns: Record<'text' | 'basic' | 'alphanumeric', Compare> = {
  text: (a, b) => compareBasic(asText(a).toLowerCase(), asText(b).toLowerCase()),
  basic: compareBasic,
  alphanumeric: (a, b) => compareAlphanumeric(asText(a).toLowerCase(), asText(b).toLowerCase()),
};

/** react-table's `auto`: it looks at the rows from the eleventh on (its `slice(10)`), kept as it was. */
function autoSortingFn<T>(column: DataTableColumn<T>, rows: Row<T>[]): Compare {
  let isString = false;
  for (const row of rows.slice(10)) {
    const value = valueOf(column, row.original);
    if (typeof value === 'string') {
      isString = true;
      if (value.split(splitDigits).length > 1) return sortingFns.alphanumeric;
    }
  }
  return isString ? sortingFns.text : sortingFns.basic;
}

/** The rows in the sorting's order, ties in the data's order. */
export function sortRows<T>(rows: Row<T>[], columns: DataTableColumn<T>[], sorting: SortingState): Row<T>[] {
  const keys = sorting.flatMap((s) => {
    const column = columns.find((c) => c.id === s.id);
    if (!column || !canSort(column)) return [];
    const compare = column.sortingFn ? sortingFns[column.sortingFn] : autoSortingFn(column, rows);
    return [{ column, desc: s.desc, compare, sortUndefined: column.sortUndefined ?? 1 }];
  });
  if (!rows.length || !keys.length) return rows;
  const values = keys.map(({ column }) => rows.map((r) => valueOf(column, r.original)));
  const order = rows.map((_, i) => i);
  order.sort((ia, ib) => {
    for (const [k, key] of keys.entries()) {
      const a = values[k]![ia];
      const b = values[k]![ib];
      let result = 0;
      if (key.sortUndefined && (a === undefined || b === undefined)) {
        if (key.sortUndefined === 'first') return a === undefined ? -1 : 1;
        if (key.sortUndefined === 'last') return a === undefined ? 1 : -1;
        result =
          a === undefined && b === undefined ? 0 : a === undefined ? key.sortUndefined : -key.sortUndefined;
      }
      if (result === 0) result = key.compare(a, b);
      if (result !== 0) return key.desc ? -result : result;
    }
    return rows[ia]!.index - rows[ib]!.index;
  });
  return order.map((i) => rows[i]!);
}

/**
 * A header's click: a column not yet sorted starts ascending when its first value is a string and
 * descending otherwise; a sorted one flips. Shift adds the column to the sorting instead.
 */
export function nextSorting<T>(
  old: SortingState,
  column: DataTableColumn<T>,
  rows: Row<T>[],
  multi: boolean,
): SortingState {
  const existing = old.find((s) => s.id === column.id);
  const first = rows[0] ? valueOf(column, rows[0].original) : undefined;
  const desc = existing ? !existing.desc : typeof first !== 'string';
  if (multi && old.length) {
    return existing
      ? old.map((s) => (s.id === column.id ? { ...s, desc } : s))
      : [...old, { id: column.id, desc }];
  }
  return [{ id: column.id, desc }];
}

/** A column's filter keeps the rows whose value holds the text (any case); the global one asks `globalFilterFn`. */
export function filterRows<T>(
  rows: Row<T>[],
  columns: DataTableColumn<T>[],
  columnFilters: ColumnFilter[] | undefined,
  globalFilter: string | undefined,
  globalFilterFn: ((row: T, filter: string) => boolean) | undefined,
): Row<T>[] {
  const filters = (columnFilters ?? []).flatMap((f) => {
    const column = columns.find((c) => c.id === f.id);
    const search = f.value == null ? undefined : textOf(f.value).toLowerCase();
    // An empty filter is no filter.
    return column && search ? [{ column, search }] : [];
  });
  const global = globalFilter && globalFilterFn ? globalFilterFn : undefined;
  if (!rows.length || (!filters.length && !global)) return rows;
  return rows.filter(
    (r) =>
      filters.every(({ column, search }) => {
        const value = valueOf(column, r.original);
        return value != null && textOf(value).toLowerCase().includes(search);
      }) &&
      (!global || global(r.original, globalFilter!)),
  );
}
