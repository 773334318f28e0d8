import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { Row } from './backup-file.js';

const ident = (name: string) => sql.identifier(name);

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/**
 * A table's rows as PostgreSQL writes them to JSON (row_to_json): timestamps with their
 * microseconds, doubles to the last digit, files as hexadecimal. The import reads them back with
 * json_populate_recordset, the exact inverse, so nothing is lost on the way.
 */
export async function readTableJson(
  db: DbOrTx,
  table: string,
  orderBy: string[],
  where?: SQL,
  leaveOutIds: ReadonlySet<number> = new Set(),
): Promise<string[]> {
  const order = sql.join(
    orderBy.map((c) => sql`t.${ident(c)}`),
    sql`, `,
  );
  const conditions = where ? [sql`(${where})`] : [];
  if (leaveOutIds.size > 0) conditions.push(sql`t.id <> all(${`{${[...leaveOutIds].join(',')}}`}::int[])`);
  const filter = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const result = await db.execute(
    sql`select row_to_json(t)::text as j from ${ident(table)} t ${filter} order by ${order}`,
  );
  return rowsOf(result).map((r) => r.j as string);
}

export async function countRows(db: DbOrTx, table: string): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from ${ident(table)}`);
  return Number(rowsOf(result)[0]?.n ?? 0);
}

export async function readColumnValues(db: DbOrTx, table: string, column: string): Promise<unknown[]> {
  const result = await db.execute(sql`select ${ident(column)} as v from ${ident(table)}`);
  return rowsOf(result).map((r) => r.v);
}

/** Which of these ids a table holds already (what a merge would overwrite). */
export async function existingIds(db: DbOrTx, table: string, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const result = await db.execute(
    sql`select id from ${ident(table)} where id = any(${`{${ids.join(',')}}`}::int[]) order by id`,
  );
  return rowsOf(result).map((r) => Number(r.id));
}

export async function deleteAllRows(db: DbOrTx, table: string): Promise<void> {
  await db.execute(sql`delete from ${ident(table)}`);
}

/** Rows per statement: one JSON parameter each, small enough to keep memory flat. */
const BATCH = 2000;

/**
 * Inserts rows read from a file, field by field as named (fields a row leaves out take the
 * column's default); `upsert` overwrites rows with the same primary key (a merge).
 */
export async function insertRows(
  db: DbOrTx,
  table: string,
  columns: string[],
  rows: Row[],
  upsert?: { primaryKey: string[] },
): Promise<void> {
  const list = sql.join(
    columns.map((c) => ident(c)),
    sql`, `,
  );
  let conflict = sql``;
  if (upsert) {
    const rest = columns.filter((c) => !upsert.primaryKey.includes(c));
    const target = sql.join(
      upsert.primaryKey.map((c) => ident(c)),
      sql`, `,
    );
    conflict =
      rest.length === 0
        ? sql` on conflict (${target}) do nothing`
        : sql` on conflict (${target}) do update set ${sql.join(
            rest.map((c) => sql`${ident(c)} = excluded.${ident(c)}`),
            sql`, `,
          )}`;
  }
  for (let i = 0; i < rows.length; i += BATCH) {
    const json = JSON.stringify(rows.slice(i, i + BATCH));
    await db.execute(
      sql`insert into ${ident(table)} (${list}) select ${list} from json_populate_recordset(null::${ident(table)}, ${json}::json)${conflict}`,
    );
  }
}

/** Moves a table's id sequence past the largest id, so the next record created gets a new one. */
export async function moveSequencePastIds(db: DbOrTx, table: string): Promise<void> {
  await db.execute(
    sql`select setval(pg_get_serial_sequence(${`"${table}"`}, 'id'), coalesce(max(id), 0) + 1, false) from ${ident(table)}`,
  );
}

/** After an import the demo is never seeded on top of the imported data. */
export async function markDemoDeclined(db: DbOrTx): Promise<void> {
  await db.execute(
    sql`insert into app_state (key, value) values ('demo_seeded', to_jsonb(now())) on conflict (key) do nothing`,
  );
}
