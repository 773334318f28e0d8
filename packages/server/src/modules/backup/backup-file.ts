import { getTableColumns } from 'drizzle-orm';
import { getTableConfig, type PgColumn } from 'drizzle-orm/pg-core';
import { EXPORT_TABLES, type ExportTable } from './backup-tables.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../../lib/json-depth.js';
import { turnAfter } from '../../lib/loop-turns.js';
import { parseBackupBytes as parseRowByRow } from './backup-file-bytes.js';

/** What a whole-database file says it is: checked before anything else is read. */
export const BACKUP_FORMAT = 'bvdb-database';
export const BACKUP_FORMAT_VERSION = 1;

export type BackupScope = 'published' | 'all' | 'full';
export type Row = Record<string, unknown>;

export interface BackupFile {
  format: typeof BACKUP_FORMAT;
  format_version: number;
  exported_at: string;
  scope: BackupScope;
  /**
   * Rows per table the exporter was not allowed to read (an assessor's view of an open round,
   * decision 038): the file is partial, and only a merge may load it.
   */
  withheld?: Record<string, number>;
  tables: Record<string, Row[]>;
}

/** One problem, located: the table, the row (1-based, as a person counts) and the field. */
export interface FileProblem {
  table?: string;
  row?: number;
  id?: unknown;
  field?: string;
  message: string;
}

export function describeProblem(p: FileProblem): string {
  const where = [
    p.table,
    p.row !== undefined
      ? `row ${p.row}${p.id !== undefined ? ` (id ${JSON.stringify(p.id)})` : ''}`
      : undefined,
    p.field !== undefined ? `field ${p.field}` : undefined,
  ].filter(Boolean);
  return where.length > 0 ? `${where.join(', ')}: ${p.message}` : p.message;
}

const MAX_PROBLEMS = 100;
/** How long the checks run before they hand the event loop a turn. */
const TURN_MS = 10;
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** A column as the file must hold it: the JSON PostgreSQL's row_to_json writes for its type. */
function valueProblem(column: PgColumn, value: unknown): string | undefined {
  if (value === null) return column.notNull ? 'must not be empty' : undefined;
  const is = (type: string) => typeof value === type;
  switch (column.columnType) {
    case 'PgSerial':
    case 'PgInteger':
      if (!Number.isInteger(value)) return `${JSON.stringify(value)} is not a whole number`;
      // PostgreSQL's integer: a larger id would fail the insert (or a lookup) with a 500.
      return (value as number) < INT_MIN || (value as number) > INT_MAX
        ? `${JSON.stringify(value)} is out of range (a whole number from ${INT_MIN} to ${INT_MAX})`
        : undefined;
    case 'PgDoublePrecision':
      return is('number') || ['NaN', 'Infinity', '-Infinity'].includes(value as string)
        ? undefined
        : `${JSON.stringify(value)} is not a number`;
    case 'PgText':
      return is('string') ? undefined : `${JSON.stringify(value)} is not text`;
    case 'PgBoolean':
      return is('boolean') ? undefined : `${JSON.stringify(value)} is not true or false`;
    case 'PgTimestamp':
      return is('string') && !Number.isNaN(Date.parse(value as string))
        ? undefined
        : `${JSON.stringify(value)} is not a date and time`;
    case 'PgJsonb':
      return undefined;
    case 'PgArray': {
      if (!Array.isArray(value)) return `${JSON.stringify(value)} is not a list`;
      const base = (column as unknown as { baseColumn: PgColumn }).baseColumn;
      for (const item of value) {
        const problem = valueProblem(base, item);
        if (problem) return `in the list: ${problem}`;
      }
      return undefined;
    }
    case 'PgCustomColumn': // bytea, as PostgreSQL writes it: \x and hexadecimal digits
      return is('string') && /^\\x(?:[0-9a-fA-F]{2})*$/.test(value as string)
        ? undefined
        : 'is not a file content (\\x and hexadecimal digits)';
    default:
      return undefined;
  }
}

/** The columns of a table by SQL name, and which of them make its primary key. */
export function tableShape(t: ExportTable) {
  const columns = new Map(Object.values(getTableColumns(t.table)).map((c) => [c.name, c]));
  const composite = getTableConfig(t.table).primaryKeys[0]?.columns.map((c) => c.name);
  const primaryKey = composite ?? [...columns.values()].filter((c) => c.primary).map((c) => c.name);
  const foreignKeys = getTableConfig(t.table).foreignKeys.map((fk) => {
    const r = fk.reference();
    return {
      column: r.columns[0]!.name,
      table: getTableConfig(r.foreignTable).name,
      foreignColumn: r.foreignColumns[0]!.name,
      setNull: fk.onDelete === 'set null',
    };
  });
  // An id drawn from a sequence, which the import moves past the ids it brings.
  const serialId = columns.get('id')?.columnType === 'PgSerial';
  return { columns, primaryKey, foreignKeys, serialId };
}

const EXPORT_HINT = 'export one from /export/bv_database.json';

/** Why a text is no JSON object at all (a workbook, a PDF, CSV), or undefined when it may be one. */
function notAJsonObject(text: string): string | undefined {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{')) return undefined;
  if (start.startsWith('PK\u0003\u0004')) {
    return `This is a ZIP file (an Excel workbook .xlsx is one), not a bvdb database file (JSON); ${EXPORT_HINT}`;
  }
  if (start.startsWith('%PDF')) return `This is a PDF, not a bvdb database file (JSON); ${EXPORT_HINT}`;
  if (start === '') return `The file is empty, not a bvdb database file; ${EXPORT_HINT}`;
  return `The file is not JSON (a bvdb database file is a JSON backup, starting with "{"); ${EXPORT_HINT}`;
}

/** Reads the outer shape of the file: a clear refusal for anything that is not a bvdb database file. */
export function parseBackupText(text: string): { file?: BackupFile; problems: FileProblem[] } {
  // A bvdb file is one JSON object: anything else is named for what it is (issue 43.5), before the
  // depth check, which a workbook's or a PDF's bytes would trip with a misleading message.
  const notJson = notAJsonObject(text);
  if (notJson) return { problems: [{ message: notJson }] };
  // A file nested deeper than any bvdb file would blow the stack of the checks that walk it.
  if (jsonDepthExceeds(text)) {
    return {
      problems: [
        { message: `The file nests deeper than ${MAX_JSON_DEPTH} levels: not a bvdb database file` },
      ],
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const detail = (err as Error).message;
    // Cut off anywhere: the parser either says so, or stumbles at the very end of the text (a cut
    // right after a comma reads as a missing property name there).
    const at = /at position (\d+)/.exec(detail);
    const truncated =
      /end of (JSON )?input|Unterminated/i.test(detail) ||
      (at !== null && Number(at[1]) >= text.trimEnd().length);
    return {
      problems: [
        {
          message: truncated
            ? `The file ends before its data does (truncated?): ${detail}`
            : `The file is not JSON: ${detail}`,
        },
      ],
    };
  }
  return readBackupShape(data);
}

/**
 * The whole-database file from its bytes (the command line): read a row at a time when it is valid
 * JSON (backup-file-bytes.ts), else decoded and parsed whole, for the same refusal as the text.
 */
export async function parseBackupBytes(
  bytes: Buffer,
): Promise<{ file?: BackupFile; problems: FileProblem[] }> {
  const data = await parseRowByRow(bytes);
  return data === undefined ? parseBackupText(bytes.toString('utf8')) : readBackupShape(data);
}

function readBackupShape(data: unknown): { file?: BackupFile; problems: FileProblem[] } {
  const o = data as Partial<BackupFile> | null;
  if (!o || typeof o !== 'object' || Array.isArray(o) || o.format !== BACKUP_FORMAT) {
    return {
      problems: [
        {
          field: 'format',
          message: `This is not a bvdb database file (it has no "format": "${BACKUP_FORMAT}"); export one from /export/bv_database.json`,
        },
      ],
    };
  }
  if (o.format_version !== BACKUP_FORMAT_VERSION) {
    return {
      problems: [
        {
          field: 'format_version',
          message: `Format version ${JSON.stringify(o.format_version)} is not one this bvdb reads (it reads version ${BACKUP_FORMAT_VERSION})`,
        },
      ],
    };
  }
  if (!o.tables || typeof o.tables !== 'object' || Array.isArray(o.tables)) {
    return { problems: [{ field: 'tables', message: 'The file has no "tables" object' }] };
  }
  const scope: BackupScope = o.scope === 'full' || o.scope === 'published' ? o.scope : 'all';
  const withheld = withheldOf(o.withheld);
  if (withheld === null) {
    return {
      problems: [{ field: 'withheld', message: 'must name tables with a count of rows left out' }],
    };
  }
  return { file: { ...(o as BackupFile), scope, withheld }, problems: [] };
}

/** The file's count of withheld rows per table (undefined: none; null: not a valid count). */
function withheldOf(value: unknown): Record<string, number> | undefined | null {
  if (value === undefined) return undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  if (!entries.every(([, n]) => Number.isInteger(n) && (n as number) >= 0)) return null;
  const counted = entries.filter(([, n]) => (n as number) > 0) as [string, number][];
  return counted.length > 0 ? Object.fromEntries(counted) : undefined;
}

/** Ids the database already holds, for references to rows the file does not carry. */
export type ExistingIds = (table: string, column: string) => Promise<Set<unknown>>;

/**
 * Every row of every table checked against the schema: known fields, types, required values,
 * allowed grades and units, duplicate keys, and references to rows that exist (in the file or,
 * for tables the file does not replace, in the database). Problems name the table, row and field.
 */
export async function checkBackupRows(
  file: BackupFile,
  existing: ExistingIds,
  opts: { merge: boolean },
): Promise<FileProblem[]> {
  const problems: FileProblem[] = [];
  const add = (p: FileProblem) => {
    if (problems.length < MAX_PROBLEMS) problems.push(p);
  };
  // 20,200 datasets and their rows checked at once held the event loop (issue 44.1): a turn every
  // TURN_MS, so a server checking an administrator's upload keeps answering.
  const pause = turnAfter(TURN_MS);
  const known = new Map(EXPORT_TABLES.map((t) => [t.name, t]));
  for (const name of Object.keys(file.tables)) {
    if (!known.has(name)) add({ table: name, message: 'is not a table bvdb knows' });
    else if (!Array.isArray(file.tables[name])) add({ table: name, message: 'must be a list of rows' });
  }
  if (problems.length > 0) return problems;

  const keysOf = new Map<string, Set<unknown>>();
  for (const t of EXPORT_TABLES) {
    const rows = file.tables[t.name];
    if (!rows) continue;
    const { columns, primaryKey } = tableShape(t);
    const seen = new Set<string>();
    const first = rows[0] && typeof rows[0] === 'object' ? Object.keys(rows[0]).sort().join(',') : '';
    for (const [i, row] of rows.entries()) {
      const turn = pause();
      if (turn) await turn;
      const at = { table: t.name, row: i + 1, id: (row as Row | null)?.id };
      if (!row || typeof row !== 'object' || Array.isArray(row)) {
        add({ ...at, message: 'is not an object of fields' });
        continue;
      }
      for (const field of Object.keys(row)) {
        if (!columns.has(field)) add({ ...at, field, message: 'is not a field of this table' });
      }
      for (const column of columns.values()) {
        if (!(column.name in row)) {
          if (column.notNull && !column.hasDefault) add({ ...at, field: column.name, message: 'is missing' });
          continue;
        }
        const problem = valueProblem(column, row[column.name]);
        if (problem) add({ ...at, field: column.name, message: problem });
      }
      if (Object.keys(row).sort().join(',') !== first) {
        add({ ...at, message: 'has other fields than the first row of its table' });
      }
      for (const p of t.check?.(row) ?? []) add({ ...at, ...p });
      const key = JSON.stringify(primaryKey.map((k) => row[k]));
      if (seen.has(key)) {
        add({
          ...at,
          field: primaryKey.join(', '),
          message: `duplicate ${primaryKey.join(', ')} ${key.slice(1, -1)}`,
        });
      }
      seen.add(key);
    }
    if (primaryKey.length === 1) keysOf.set(t.name, new Set(rows.map((r) => r[primaryKey[0]!])));
  }
  if (problems.length > 0) return problems;

  // References between rows: to the file's rows of that table, or to the database's when the file
  // does not carry the table (or, on a merge, when it adds to what is there).
  for (const t of EXPORT_TABLES) {
    const rows = file.tables[t.name];
    if (!rows) continue;
    for (const fk of tableShape(t).foreignKeys) {
      const inFile = keysOf.get(fk.table);
      const target =
        inFile && !opts.merge
          ? inFile
          : new Set([...(inFile ?? []), ...(await existing(fk.table, fk.foreignColumn))]);
      for (const [i, row] of rows.entries()) {
        const turn = pause();
        if (turn) await turn;
        const value = row[fk.column];
        if (value != null && !target.has(value)) {
          add({
            table: t.name,
            row: i + 1,
            id: row.id,
            field: fk.column,
            message: `${fk.table} ${fk.foreignColumn} ${JSON.stringify(value)} does not exist`,
          });
        }
      }
    }
  }
  return problems;
}
