import { performance } from 'node:perf_hooks';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { writeTransaction } from '../../lib/write-transaction.js';
import { recomputeRequestedNow } from '../recompute-queue/index.js';
import type { ActorRole } from '../../lib/recompute-door.js';
import {
  checkBackupRows,
  parseBackupBytes,
  parseBackupText,
  tableShape,
  type BackupFile,
  type BackupScope,
} from './backup-file.js';
import { CORE_TABLES, EXPORT_TABLES } from './backup-tables.js';
import * as repo from './backup.repository.js';
import { saveBackupBeforeReplace } from './before-replace-backup.js';
import { oneImportAtATime } from './import-guard.js';
import { assertConfirmed, consequencesOf, type Consequence, type Importer } from './import-consequences.js';
import { checkAdministratorKept, planImport, rowsDeletedAndLeft } from './import-plan.js';
import { databaseRefusal, existingMessage, refuse, refuseWithheld } from './import-refusals.js';
import { writeImport } from './import-write.js';

type Deps = Pick<ServiceDeps, 'db' | 'cache'>;

export type ImportMode = 'new' | 'replace' | 'merge';

export interface ImportOptions {
  /** `new` refuses a database that holds measurands, references or datasets. */
  mode: ImportMode;
  /** Leave out the file's meta-analysis results and compute them with bvdb's rules after the import. */
  recompute?: boolean;
  /** Check everything and say what would happen; write nothing. */
  dryRun?: boolean;
  /** Users, the audit trail and the other backup-only tables: administrators and the CLI only. */
  allowFull: boolean;
  /** A replace also empties the tables the file leaves out (by default it keeps them). */
  clearAbsent?: boolean;
  /** Where a replace first saves the database as a complete backup (`DATA_DIR/backups`). */
  backupFolder?: string;
  /** Who imports, by role: the recompute's cause (decision 048). The command line is `system`. */
  role?: ActorRole;
  /**
   * The administrator importing through the page: a replace that removes their account or deletes
   * submitted appraisals is refused unless `confirm` names it (decision 082). The command line,
   * the operator's own act, is not asked.
   */
  importer?: Importer;
  /** The consequences the request accepts (`confirm`). */
  confirm?: readonly string[];
}

export interface ImportSummary {
  format_version: number;
  scope: BackupScope;
  exported_at: string | null;
  tables: { name: string; rows: number; overwritten: number[] }[];
  existing: Record<(typeof CORE_TABLES)[number], number>;
  /** The rows the import deletes (would delete, in a preview), table by table. */
  deletes: { name: string; rows: number }[];
  written: boolean;
  import_ms: number;
  recompute?: { measurands: number; ms: number };
  /** The complete backup a replace saved first, in `DATA_DIR/backups`. */
  backup_file?: string;
  /** Datasets "in appraisal" with no round left, returned to final. */
  returned_to_final?: number;
  /** Rows per table the file's maker could not read (a blind assessor's backup, decision 038). */
  withheld?: Record<string, number>;
  /** What the import does that it does only when confirmed (decision 082). */
  consequences?: Consequence[];
}

/**
 * The file as text, or as its bytes (read a row at a time, never made one string), or a function
 * that hands either over once: the caller then holds no reference to it, and it is garbage once
 * parsed, during the checks and the writes (decision 073).
 */
export type FileText = string | Buffer | (() => string | Buffer);

const countCore = async (db: Deps['db']) =>
  Object.fromEntries(
    await Promise.all(CORE_TABLES.map(async (t) => [t, await repo.countRows(db, t)] as const)),
  ) as ImportSummary['existing'];

/**
 * Loads a whole-database file in one transaction: all or nothing, ids kept, sequences moved past
 * them. Every row is checked first, so a refusal names the table, row and field. One import at a
 * time (a second one is a 409); a preview (dry run) runs beside them.
 */
export async function importDatabaseJson(
  deps: Deps,
  text: FileText,
  opts: ImportOptions,
): Promise<ImportSummary> {
  if (opts.dryRun) return importOrPreview(deps, text, opts);
  return oneImportAtATime(deps.db, () => importOrPreview(deps, text, opts));
}

async function importOrPreview(deps: Deps, text: FileText, opts: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const input = typeof text === 'function' ? text() : text;
  const parsed = typeof input === 'string' ? parseBackupText(input) : await parseBackupBytes(input);
  if (!parsed.file) throw refuse(parsed.problems);
  const file: BackupFile = parsed.file;
  const fullOnly = EXPORT_TABLES.filter((t) => t.scope === 'full' && file.tables[t.name]);
  if (fullOnly.length > 0 && !opts.allowFull) {
    throw new AppError(
      'forbidden',
      `Only an administrator may import a complete backup (it holds ${fullOnly.map((t) => t.name).join(', ')})`,
    );
  }
  const merge = opts.mode === 'merge';
  if (file.withheld && !merge) throw refuseWithheld(file.withheld);
  const problems = await checkBackupRows(
    file,
    async (table, column) => new Set(await repo.readColumnValues(deps.db, table, column)),
    { merge },
  );
  if (problems.length > 0) throw refuse(problems);

  const existing = await countCore(deps.db);
  if (opts.mode === 'new' && Object.values(existing).some((n) => n > 0)) {
    throw new AppError('conflict', existingMessage(existing));
  }
  const plan = planImport(file, { merge, recompute: opts.recompute, clearAbsent: opts.clearAbsent });
  await checkAdministratorKept(deps.db, file, plan);
  const { deletes, after } = await rowsDeletedAndLeft(deps.db, file, plan);
  const consequences = opts.importer ? await consequencesOf(deps.db, after, opts.importer) : [];
  const summary: ImportSummary = {
    format_version: file.format_version,
    scope: file.scope,
    exported_at: typeof file.exported_at === 'string' ? file.exported_at : null,
    tables: [],
    existing,
    deletes,
    ...(consequences.length > 0 ? { consequences } : {}),
    written: false,
    import_ms: 0,
    ...(file.withheld ? { withheld: file.withheld } : {}),
  };
  for (const t of plan.insert) {
    const rows = file.tables[t.name]!;
    const hasId = tableShape(t).primaryKey.join() === 'id';
    const overwritten =
      merge && hasId
        ? await repo.existingIds(
            deps.db,
            t.name,
            rows.map((r) => r.id as number),
          )
        : [];
    summary.tables.push({ name: t.name, rows: rows.length, overwritten });
  }
  if (opts.dryRun) {
    summary.import_ms = Math.round(performance.now() - started);
    return summary;
  }
  assertConfirmed(consequences, opts.confirm ?? []);

  if (opts.mode === 'replace') {
    // Callers always name the folder (the route and the CLI: DATA_DIR/backups); never replace unsaved.
    if (!opts.backupFolder) throw new Error('A replace needs a folder for the backup it saves first');
    summary.backup_file = await saveBackupBeforeReplace(deps.db, opts.backupFolder);
  }
  let written;
  try {
    written = await writeTransaction(deps, (tx) =>
      writeImport(tx, file, plan, { merge, recompute: opts.recompute, role: opts.role ?? 'system' }),
    );
  } catch (err) {
    throw databaseRefusal(err) ?? err;
  }
  summary.written = true;
  summary.returned_to_final = written.returnedToFinal;
  summary.import_ms = Math.round(performance.now() - started);
  if (written.tracker) {
    const begun = performance.now();
    await recomputeRequestedNow(deps.db, written.tracker.id, () => deps.cache.invalidate());
    summary.recompute = {
      measurands: written.tracker.progressMax,
      ms: Math.round(performance.now() - begun),
    };
  }
  return summary;
}
