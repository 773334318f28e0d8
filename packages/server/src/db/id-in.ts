import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * `column = any('{…}'::int[])`: the ids as one parameter. A list of a hundred parameters cost
 * PGlite's bind step more than the query's execution (decision 061), and thousands of them (a
 * release's notes at 100× the demo) cost drizzle ~30 ms of the event loop to build; the ids are
 * integers, so the array's text needs no quoting.
 */
export const idIn = (column: AnyPgColumn, ids: readonly number[]): SQL =>
  sql`${column} = any(${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int[])`;
