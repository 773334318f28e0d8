import type { Dataset } from '@bvdb/contract';

/** Rows per page of the all-datasets table (spec section 9: default table page size). */
export const SPEC_PAGE_SIZE = 10;

/** `?page=` of the URL as a page number from 1; anything else is page 1. */
export function pageFromParam(value: string | null): number {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * The table's default order, as its sorting computes it: measurand name descending, compared in
 * lower case (react-table's `text` sort), ties kept in the order of the list.
 */
export function inDefaultOrder(datasets: readonly Dataset[]): Dataset[] {
  const key = (d: Dataset) => d.analyte_display_name.toLowerCase();
  return datasets
    .map((d, index) => ({ d, index, k: key(d) }))
    .sort((a, b) => (a.k === b.k ? a.index - b.index : a.k < b.k ? 1 : -1))
    .map(({ d }) => d);
}

/** Page `page` (from 1) of the table in its default order: empty past the last page. */
export function pageInDefaultOrder(datasets: readonly Dataset[], page: number): Dataset[] {
  return inDefaultOrder(datasets).slice((page - 1) * SPEC_PAGE_SIZE, page * SPEC_PAGE_SIZE);
}
