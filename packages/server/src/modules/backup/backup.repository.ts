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
  // Pages in primary-key order (keyset: after the last row read), the event loop free between
  // them: the embedded database answers on this thread, and a whole table at 100× the demo data is
  // tens of megabytes of JSON (seconds in one query). Each page's rows are chosen first and only
  // they are made JSON (an OFFSET, or a projection below the sort, would make every skipped row
  // JSON again). The last row's key is read back from its own JSON (json_populate_record, the
  // exact inverse), whatever the key's types. The caller reads in one repeatable-read snapshot.
  const keys = orderBy.map((c) => sql`p.${ident(c)}`);
  const out: string[] = [];
  let last: string | undefined;
  for (;;) {
    const after = last
      ? sql`(${order}) > (select ${sql.join(keys, sql`, `)} from json_populate_record(null::${ident(table)}, ${last}::json) p)`
      : undefined;
    const where = [...conditions, ...(after ? [after] : [])];
    const pageFilter = where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``;
    const result = await db.execute(
      sql`select row_to_json(t)::text as j from (select * from ${ident(table)} t ${pageFilter} order by ${order} limit ${JSON_PAGE_ROWS}) t order by ${order}`,
    );
    const rows = rowsOf(result);
    for (const r of rows) out.push(r.j as string);
    if (rows.length < JSON_PAGE_ROWS) return out;
    last = out[out.length - 1];
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Rows per query when a table is read as JSON. */
const JSON_PAGE_ROWS = 1000;

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

/**
 * The key of the advisory lock an import's transaction holds (any 64-bit number no other part of
 * bvdb uses: "bvdb" and "imp" in ASCII), so imports on one PostgreSQL server run one at a time.
 */
export const IMPORT_LOCK_KEY = 0x6276_6462_696d_70;

/** True when this transaction now holds the import lock; false when another import holds it. */
export async function tryTakeImportLock(tx: DbOrTx): Promise<boolean> {
  const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${IMPORT_LOCK_KEY}::bigint) as ok`);
  return rowsOf(result)[0]?.ok === true;
}

/** The ids of the administrators who can sign in. */
export async function activeAdminIds(db: DbOrTx): Promise<number[]> {
  const result = await db.execute(sql`select id from users where role = 'admin' and active order by id`);
  return rowsOf(result).map((r) => Number(r.id));
}

/** Some columns of every row of a table (the preview's dry run of what a replace keeps). */
export async function readColumns(db: DbOrTx, table: string, columns: string[]): Promise<Row[]> {
  const list = sql.join(
    columns.map((c) => ident(c)),
    sql`, `,
  );
  return rowsOf(await db.execute(sql`select ${list} from ${ident(table)}`));
}

const keepTable = (table: string) => ident(`bvdb_keep_${table}`);

/** A copy of a table's rows for the rest of the transaction, to put back what a replace keeps. */
export async function stashRows(tx: DbOrTx, table: string): Promise<void> {
  await tx.execute(
    sql`create temporary table ${keepTable(table)} on commit drop as select * from ${ident(table)}`,
  );
}

export interface StashedForeignKey {
  column: string;
  table: string;
  foreignColumn: string;
  /** `set null`: a missing parent empties the field; otherwise the row is not put back. */
  setNull: boolean;
}

/**
 * Puts the stashed rows back whose parents still exist (rows pointing at a parent that is gone are
 * left out, as the database's cascade would; `set null` references are emptied instead).
 * Returns how many rows were left out.
 */
export async function restoreStashedRows(
  tx: DbOrTx,
  table: string,
  columns: string[],
  foreignKeys: StashedForeignKey[],
): Promise<number> {
  const exists = (fk: StashedForeignKey) =>
    sql`exists (select 1 from ${ident(fk.table)} p where p.${ident(fk.foreignColumn)} = k.${ident(fk.column)})`;
  const values = columns.map((c) => {
    const fk = foreignKeys.find((f) => f.column === c && f.setNull);
    return fk ? sql`case when ${exists(fk)} then k.${ident(c)} end` : sql`k.${ident(c)}`;
  });
  const conditions = foreignKeys
    .filter((fk) => !fk.setNull)
    .map((fk) => sql`(k.${ident(fk.column)} is null or ${exists(fk)})`);
  const where = conditions.length > 0 ? sql` where ${sql.join(conditions, sql` and `)}` : sql``;
  const list = sql.join(
    columns.map((c) => ident(c)),
    sql`, `,
  );
  const inserted = await tx.execute(
    sql`insert into ${ident(table)} (${list}) select ${sql.join(values, sql`, `)} from ${keepTable(table)} k${where} returning 1 as one`,
  );
  const all = await tx.execute(sql`select count(*)::int as n from ${keepTable(table)}`);
  return Number(rowsOf(all)[0]?.n ?? 0) - rowsOf(inserted).length;
}

/**
 * A dataset "in appraisal" needs an open round (decision 008). One left without (its rounds were
 * not in the file, or were cleared) returns to the state it had before the round opened: final,
 * with its grades (and `grades_final`) as they are. Returns how many.
 */
export async function closeAppraisalsWithoutRound(tx: DbOrTx): Promise<number> {
  const result = await tx.execute(sql`
    update bv_specifications b set appraisal_state = 'final', version = b.version + 1
    where b.appraisal_state = 'in_appraisal'
      and not exists (select 1 from appraisal_rounds r where r.dataset_id = b.id and r.state <> 'final')
    returning b.id`);
  return rowsOf(result).length;
}
