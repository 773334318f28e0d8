import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { tableShape, type BackupFile, type Row } from './backup-file.js';
import { EXPORT_TABLES, META_TABLES, type ExportTable } from './backup-tables.js';
import * as repo from './backup.repository.js';

export interface PlanOptions {
  merge: boolean;
  recompute?: boolean;
  /** A replace also empties the tables the file leaves out (otherwise they are kept). */
  clearAbsent?: boolean;
}

/**
 * What an import does, table by table, in the order it does it (parents before children):
 * `insert` the file's rows; `clear` empties a table first (a replace: the tables the file carries,
 * the meta results when recomputed, and with clear_absent every other one); `keep` is a table the
 * replace leaves alone although it refers to a cleared one (appraisal rounds to datasets, say): its
 * rows are put back after the replace, those whose parent is gone left out.
 */
export interface ImportPlan {
  insert: ExportTable[];
  clear: ExportTable[];
  keep: ExportTable[];
}

export function planImport(file: BackupFile, opts: PlanOptions): ImportPlan {
  const insert = EXPORT_TABLES.filter(
    (t) => file.tables[t.name] && !(opts.recompute && META_TABLES.has(t.name)),
  );
  if (opts.merge) return { insert, clear: [], keep: [] };
  const clear = EXPORT_TABLES.filter(
    (t) => opts.clearAbsent || file.tables[t.name] || (opts.recompute && META_TABLES.has(t.name)),
  );
  // Parents come first, so one pass finds the tables that refer to a cleared one through others.
  const touched = new Set(clear.map((t) => t.name));
  const keep: ExportTable[] = [];
  for (const t of EXPORT_TABLES) {
    if (touched.has(t.name)) continue;
    if (tableShape(t).foreignKeys.some((fk) => touched.has(fk.table))) {
      keep.push(t);
      touched.add(t.name);
    }
  }
  return { insert, clear, keep };
}

/**
 * The rows a replace deletes, table by table (tables it deletes nothing from left out): every row
 * of a cleared table, and the kept rows whose parent the file does not bring back.
 */
export async function rowsDeleted(
  db: DbOrTx,
  file: BackupFile,
  plan: ImportPlan,
): Promise<{ name: string; rows: number }[]> {
  return (await rowsDeletedAndLeft(db, file, plan)).deletes;
}

/**
 * As rowsDeleted, and the rows (their keys) of each table the import changes as they are after it:
 * what the consequences a replace must have confirmed are read from (import-consequences.ts).
 */
export async function rowsDeletedAndLeft(
  db: DbOrTx,
  file: BackupFile,
  plan: ImportPlan,
): Promise<{ deletes: { name: string; rows: number }[]; after: Map<string, Row[]> }> {
  const out: { name: string; rows: number }[] = [];
  for (const t of plan.clear) {
    const rows = await repo.countRows(db, t.name);
    if (rows > 0) out.push({ name: t.name, rows });
  }
  // The keys each table holds after the import, where it differs from now.
  const after = new Map<string, Row[]>();
  for (const t of plan.clear) after.set(t.name, plan.insert.includes(t) ? file.tables[t.name]! : []);
  for (const t of plan.keep) {
    const { columns, primaryKey, foreignKeys } = tableShape(t);
    const checked = foreignKeys.filter((fk) => !fk.setNull && after.has(fk.table));
    // Its keys (children refer to them) and the references that may now point nowhere.
    const read = new Set([...primaryKey, ...checked.map((fk) => fk.column)]);
    if (columns.has('id')) read.add('id');
    const rows = await repo.readColumns(db, t.name, [...read]);
    const keys = new Map(
      checked.map((fk) => [fk, new Set(after.get(fk.table)!.map((r) => r[fk.foreignColumn]))]),
    );
    const kept = rows.filter((r) =>
      checked.every((fk) => r[fk.column] == null || keys.get(fk)!.has(r[fk.column])),
    );
    after.set(t.name, kept);
    if (kept.length < rows.length) out.push({ name: t.name, rows: rows.length - kept.length });
  }
  return { deletes: out, after };
}

const noAdministrator = () =>
  new AppError(
    'unprocessable',
    'The import would leave no active administrator: the file must hold an active account with the ' +
      'role admin, or leave "users" out (the accounts are then kept). Nothing was imported.',
  );

/** Refuses, before anything is written, a file that would leave no administrator who can sign in. */
export async function checkAdministratorKept(db: DbOrTx, file: BackupFile, plan: ImportPlan): Promise<void> {
  const cleared = plan.clear.some((t) => t.name === 'users');
  const fileUsers = file.tables.users;
  if (!cleared && !fileUsers) return;
  const inFile = fileUsers ?? [];
  const fileAdmins = inFile.filter((u) => (u.role ?? 'admin') === 'admin' && u.active !== false);
  const overwritten = new Set(inFile.map((u) => u.id));
  const kept = cleared ? [] : (await repo.activeAdminIds(db)).filter((id) => !overwritten.has(id));
  if (fileAdmins.length + kept.length === 0) throw noAdministrator();
}

/** The same rule inside the import's transaction, after the writes: the last word. */
export async function assertAdministratorLeft(tx: DbOrTx): Promise<void> {
  if ((await repo.activeAdminIds(tx)).length === 0) throw noAdministrator();
}
