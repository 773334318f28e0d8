import { gt, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * Whole-table reads a page of rows at a time (issue 44.1). A query's rows are turned into objects
 * (pg's parser, then drizzle's mapping) in one go when its answer is complete, on the event loop:
 * 7,100 measurands or 20,000 results at 100× the demo held it 100–290 ms on PostgreSQL, more when
 * several such answers arrived in the same poll. Read a page at a time, a read costs the loop one
 * page's worth at most, and the loop polls between pages (each is a query of its own).
 *
 * Pages are read one after another, not in one statement: each row is read as committed when its
 * page is, as when separate queries read the parts of one answer (a write between pages is followed
 * by the change it signals, as any read's is).
 */

/** Rows per page: ~10–30 ms of the loop for a wide row (a dataset, a result) on a slow machine. */
export const PAGE_ROWS = 1000;
/** Rows per page of a read of a few narrow columns (ids, a date). */
export const NARROW_PAGE_ROWS = 5000;

/** A keyset page's condition on an id: past `after`, or none for the first page. */
export const pastId = (column: AnyPgColumn, after: number | undefined): SQL | undefined =>
  after === undefined ? undefined : gt(column, after);

/**
 * Every row of a read in keyset pages: `readPage(after, limit)` reads up to `limit` rows after the
 * key `after` (undefined: from the start) in the read's order, of which `keyOf` gives the key.
 */
export async function readInPages<T, K>(
  readPage: (after: K | undefined, limit: number) => Promise<T[]>,
  keyOf: (row: T) => K,
  pageRows = PAGE_ROWS,
): Promise<T[]> {
  const out: T[] = [];
  let after: K | undefined;
  for (;;) {
    const page = await readPage(after, pageRows);
    for (const row of page) out.push(row);
    if (page.length < pageRows) return out;
    after = keyOf(page[page.length - 1]!);
  }
}

/**
 * The rows of `ids`, in the order of `ids`, read `pageRows` ids at a time by `read` (in any order):
 * a read whose order is not a key (by name, with nulls) reads its ordered ids first, a narrow and
 * cheap answer, then its wide rows by id. Ids with no row (gone since) are left out.
 */
export async function readByIdsInPages<T>(
  ids: readonly number[],
  read: (ids: number[]) => Promise<T[]>,
  idOf: (row: T) => number,
  pageRows = PAGE_ROWS,
): Promise<T[]> {
  const byId = new Map<number, T>();
  for (let at = 0; at < ids.length; at += pageRows)
    for (const row of await read(ids.slice(at, at + pageRows))) byId.set(idOf(row), row);
  const out: T[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row !== undefined) out.push(row);
  }
  return out;
}
