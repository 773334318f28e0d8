import { describe, expect, it } from 'vitest';
import {
  filterRows,
  nextSorting,
  sortRows,
  toRows,
  type DataTableColumn,
  type SortingState,
} from './data-table-model';

interface Item {
  name: string;
  cv?: number;
  code: string;
}
const items: Item[] = [
  { name: 'beta', cv: 5, code: 'Item 10' },
  { name: 'Alpha', code: 'Item 9' },
  { name: 'gamma', cv: 12, code: 'Item 100' },
  { name: 'alpha', cv: 5, code: 'item 2' },
];
const name: DataTableColumn<Item> = { id: 'name', header: 'Name', accessorKey: 'name', sortingFn: 'text' };
const cv: DataTableColumn<Item> = { id: 'cv', header: 'CV', accessorFn: (i) => i.cv, sortUndefined: 'last' };
const cvDefault: DataTableColumn<Item> = { id: 'cvd', header: 'CV', accessorFn: (i) => i.cv };
const code: DataTableColumn<Item> = {
  id: 'code',
  header: 'Code',
  accessorKey: 'code',
  sortingFn: 'alphanumeric',
};
const columns = [name, cv, cvDefault, code];
const order = (sorting: SortingState, data = items) =>
  sortRows(toRows(data), columns, sorting).map((r) => `${r.original.name}/${r.original.cv ?? '-'}`);

// The orders @tanstack/react-table 8.21 gave these columns (decision 088 keeps them).
describe('sortRows', () => {
  it.each([
    [
      'text, any case, ties in data order',
      [{ id: 'name', desc: false }],
      ['Alpha/-', 'alpha/5', 'beta/5', 'gamma/12'],
    ],
    ['text descending', [{ id: 'name', desc: true }], ['gamma/12', 'beta/5', 'Alpha/-', 'alpha/5']],
    ['undefined last, ascending', [{ id: 'cv', desc: false }], ['beta/5', 'alpha/5', 'gamma/12', 'Alpha/-']],
    [
      'undefined last, descending too',
      [{ id: 'cv', desc: true }],
      ['gamma/12', 'beta/5', 'alpha/5', 'Alpha/-'],
    ],
    [
      'undefined after ascending by default',
      [{ id: 'cvd', desc: false }],
      ['beta/5', 'alpha/5', 'gamma/12', 'Alpha/-'],
    ],
    [
      'undefined first descending by default',
      [{ id: 'cvd', desc: true }],
      ['Alpha/-', 'gamma/12', 'beta/5', 'alpha/5'],
    ],
    ['digits as numbers', [{ id: 'code', desc: false }], ['alpha/5', 'Alpha/-', 'beta/5', 'gamma/12']],
    [
      'two keys',
      [
        { id: 'cv', desc: false },
        { id: 'name', desc: true },
      ],
      ['beta/5', 'alpha/5', 'gamma/12', 'Alpha/-'],
    ],
    [
      'an unknown column is ignored',
      [{ id: 'nope', desc: true }],
      ['beta/5', 'Alpha/-', 'gamma/12', 'alpha/5'],
    ],
  ] as const)('%s', (_what, sorting, expected) => {
    expect(order([...sorting])).toEqual(expected);
  });

  it('does not sort by a column that cannot sort', () => {
    const shown: DataTableColumn<Item> = {
      id: 'name',
      header: 'Name',
      accessorKey: 'name',
      enableSorting: false,
    };
    const rows = sortRows(toRows(items), [shown], [{ id: 'name', desc: false }]);
    expect(rows.map((r) => r.index)).toEqual([0, 1, 2, 3]);
  });
});

describe('nextSorting', () => {
  const rows = toRows(items);
  it('starts a text column ascending and a number column descending, then flips', () => {
    expect(nextSorting([], name, rows, false)).toEqual([{ id: 'name', desc: false }]);
    expect(nextSorting([], cv, rows, false)).toEqual([{ id: 'cv', desc: true }]);
    expect(nextSorting([{ id: 'cv', desc: true }], cv, rows, false)).toEqual([{ id: 'cv', desc: false }]);
    expect(nextSorting([{ id: 'cv', desc: false }], cv, rows, false)).toEqual([{ id: 'cv', desc: true }]);
  });
  it('replaces the sorting, or adds to it with shift', () => {
    expect(nextSorting([{ id: 'cv', desc: true }], name, rows, false)).toEqual([{ id: 'name', desc: false }]);
    expect(nextSorting([{ id: 'cv', desc: true }], name, rows, true)).toEqual([
      { id: 'cv', desc: true },
      { id: 'name', desc: false },
    ]);
  });
});

describe('filterRows', () => {
  const rows = toRows(items);
  it('keeps the rows whose value holds the text, any case', () => {
    expect(
      filterRows(rows, columns, [{ id: 'name', value: 'ALP' }], undefined, undefined).map((r) => r.index),
    ).toEqual([1, 3]);
  });
  it('an empty filter keeps every row', () => {
    expect(filterRows(rows, columns, [{ id: 'name', value: '' }], '', undefined)).toHaveLength(4);
  });
  it('asks the global filter function with the filter text', () => {
    const kept = filterRows(rows, columns, [], 'mm', (i, f) => i.name.includes(f));
    expect(kept.map((r) => r.original.name)).toEqual(['gamma']);
  });
});
