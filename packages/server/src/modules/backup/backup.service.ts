import { performance } from 'node:perf_hooks';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { writeTransaction } from '../../lib/write-transaction.js';
import { blindViewFor, SEES_EVERYTHING } from '../appraisals/appraisals-blind.service.js';
import { recordAudit } from '../audit/audit.service.js';
import {
  listAnalyteIdsWithDatasets,
  recomputeAnalytesMetas,
} from '../meta-analysis/recompute/meta-recompute.service.js';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  checkBackupRows,
  describeProblem,
  parseBackupText,
  tableShape,
  type BackupFile,
  type BackupScope,
  type FileProblem,
} from './backup-file.js';
import { CORE_TABLES, EXPORT_TABLES, META_TABLES, tablesOf } from './backup-tables.js';
import * as repo from './backup.repository.js';

export { BACKUP_FORMAT_VERSION, describeProblem, type BackupScope } from './backup-file.js';

type Deps = Pick<ServiceDeps, 'db' | 'cache'>;

/** Who asks for an export: a signed-in user, the operator's command line, or anyone (null). */
export type Exporter = { userId: number; email: string } | 'command line' | null;

/**
 * The whole database as one JSON file, table by table with every field and id, read in one
 * snapshot. `published`: what anyone may see; `all`: with unpublished records (signed in);
 * `full`: also users, the audit trail, the mailing list, content pages and PDFs (a backup). A
 * backup leaves out what the blind rule hides from its maker (an assessor's view of an open round,
 * decision 038), says how many rows it left out (`withheld`), and is written to the audit trail.
 */
export async function exportDatabaseJson(
  db: ServiceDeps['db'],
  scope: BackupScope,
  by: Exporter,
  opts: { sendsFile: boolean } = { sendsFile: true },
): Promise<string[]> {
  if (scope === 'full' && by === null) throw new AppError('unauthorized', 'You need to sign in to do that');
  const tables = tablesOf(scope === 'full');
  const { bodies, withheld } = await db.transaction(
    async (tx) => {
      // Read in the same snapshot as the rows, so what is counted as withheld is what is left out.
      const view =
        scope === 'full' && by !== 'command line' && by !== null
          ? await blindViewFor(tx, by.userId)
          : SEES_EVERYTHING;
      const out: string[][] = [];
      const left: Record<string, number> = {};
      for (const t of tables) {
        const where = scope === 'published' ? t.publicRows : undefined;
        const leaveOut = t.blind ? view[t.blind] : undefined;
        if (leaveOut?.size) left[t.name] = leaveOut.size;
        out.push(await repo.readTableJson(tx, t.name, tableShape(t).primaryKey, where, leaveOut));
      }
      return { bodies: out, withheld: Object.keys(left).length > 0 ? left : undefined };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  if (scope === 'full' && opts.sendsFile) {
    // Before a byte is sent (a HEAD sends none): no backup leaves without its entry (who, when, what was left out).
    await recordAudit(db, {
      userId: by === 'command line' || by === null ? null : by.userId,
      entity: 'database',
      entityId: 1, // the one database: its trail is /api/audit/database/1
      action: 'export',
      after: {
        scope,
        by: by === 'command line' || by === null ? 'command line' : by.email,
        ...(withheld ? { withheld } : {}),
      },
    });
  }
  const head = JSON.stringify({
    format: BACKUP_FORMAT,
    format_version: BACKUP_FORMAT_VERSION,
    exported_at: new Date().toISOString(),
    scope,
    ...(withheld ? { withheld } : {}),
  });
  const chunks = [`${head.slice(0, -1)},\n"tables":{`];
  tables.forEach((t, i) => {
    const rows = bodies[i]!;
    chunks.push(`${i > 0 ? ',' : ''}\n${JSON.stringify(t.name)}:[`);
    // Rows joined in slices: one string of the whole file would be needlessly large.
    for (let k = 0; k < rows.length; k += 1000) {
      chunks.push(`${k > 0 ? ',' : ''}\n${rows.slice(k, k + 1000).join(',\n')}`);
    }
    chunks.push(']');
  });
  chunks.push('\n}}\n');
  return chunks;
}

/** Anonymous: published records; signed in: all records; an administrator asking `full`: a backup. */
export function backupScopeFor(user: { role: string } | null | undefined, full: boolean): BackupScope {
  if (full) {
    if (!user) throw new AppError('unauthorized', 'You need to sign in to do that');
    if (user.role !== 'admin') {
      throw new AppError('forbidden', 'Only an administrator may download a complete backup');
    }
    return 'full';
  }
  return user && user.role !== 'assessor' ? 'all' : 'published';
}

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
}

/** A file that left rows out would, loaded in place of a database, lose them: a merge only. */
function refuseWithheld(withheld: Record<string, number>): AppError {
  const rows = Object.entries(withheld).map(([table, n]) => `${n} ${table}`);
  return new AppError(
    'bad_request',
    `This backup was made by an assessor of an open appraisal round and withheld rows they may not ` +
      `read (${rows.join(', ')}), so it is partial: it may be merged (mode merge, --merge) but not ` +
      'loaded in place of a database. Make the backup as an administrator who assesses no open round, ' +
      'or with npm run export -- --full. Nothing was imported.',
  );
}

export interface ImportSummary {
  format_version: number;
  scope: BackupScope;
  exported_at: string | null;
  tables: { name: string; rows: number; overwritten: number[] }[];
  existing: Record<(typeof CORE_TABLES)[number], number>;
  written: boolean;
  import_ms: number;
  recompute?: { measurands: number; ms: number };
  withheld?: Record<string, number>;
}

function refuse(problems: FileProblem[]): AppError {
  const more =
    problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
  return new AppError('bad_request', `${describeProblem(problems[0]!)}${more}. Nothing was imported.`, {
    fields: problems.map((p) => ({
      path:
        [p.table, p.row !== undefined ? `row ${p.row}` : undefined, p.field].filter(Boolean).join('.') ||
        'file',
      message: describeProblem(p),
    })),
  });
}

/** A constraint the database itself enforced (a rule no check above knew): a 400 naming it. */
function databaseRefusal(err: unknown): AppError | undefined {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: unknown; message?: string; detail?: string; table?: string };
    if (typeof pg.code === 'string' && /^2[23]/.test(pg.code)) {
      const where = pg.table ? ` in ${pg.table}` : '';
      return new AppError(
        'bad_request',
        `The database refused the file${where}: ${pg.message}${pg.detail ? ` (${pg.detail})` : ''}. Nothing was imported.`,
      );
    }
  }
  return undefined;
}

const countCore = async (db: Deps['db']) =>
  Object.fromEntries(
    await Promise.all(CORE_TABLES.map(async (t) => [t, await repo.countRows(db, t)] as const)),
  ) as ImportSummary['existing'];

function existingMessage(existing: ImportSummary['existing']): string {
  return (
    `The database already holds ${existing.analytes} measurands, ${existing.references} references and ` +
    `${existing.bv_specifications} datasets. Replace them all with the file (--replace), or merge the file ` +
    'into them (--merge: records with the same ids are overwritten). Nothing was imported.'
  );
}

/**
 * Loads a whole-database file in one transaction: all or nothing, ids kept, sequences moved past
 * them. Every row is checked first, so a refusal names the table, row and field.
 */
export async function importDatabaseJson(
  deps: Deps,
  text: string,
  opts: ImportOptions,
): Promise<ImportSummary> {
  const started = performance.now();
  const parsed = parseBackupText(text);
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
  const tables = EXPORT_TABLES.filter(
    (t) => file.tables[t.name] && !(opts.recompute && META_TABLES.has(t.name)),
  );
  const summary: ImportSummary = {
    format_version: file.format_version,
    scope: file.scope,
    exported_at: typeof file.exported_at === 'string' ? file.exported_at : null,
    tables: [],
    existing,
    written: false,
    import_ms: 0,
    ...(file.withheld ? { withheld: file.withheld } : {}),
  };
  for (const t of tables) {
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

  try {
    await writeTransaction(deps, async (tx) => {
      if (!merge) {
        // Everything the file replaces, children first; the meta results too when they are recomputed.
        const cleared = EXPORT_TABLES.filter(
          (t) => file.tables[t.name] || (opts.recompute && META_TABLES.has(t.name)),
        );
        for (const t of [...cleared].reverse()) await repo.deleteAllRows(tx, t.name);
      }
      for (const t of tables) {
        const rows = file.tables[t.name]!;
        if (rows.length === 0) continue;
        const { primaryKey, serialId } = tableShape(t);
        await repo.insertRows(tx, t.name, Object.keys(rows[0]!), rows, merge ? { primaryKey } : undefined);
        if (serialId) await repo.moveSequencePastIds(tx, t.name);
      }
      await repo.markDemoDeclined(tx);
    });
  } catch (err) {
    throw databaseRefusal(err) ?? err;
  }
  summary.written = true;
  summary.import_ms = Math.round(performance.now() - started);
  if (opts.recompute) summary.recompute = await recomputeAll(deps);
  return summary;
}

/** Measurands recomputed per transaction: few round trips, and no transaction holds the whole set. */
const RECOMPUTE_CHUNK = 500;

/**
 * Every measurand's meta-analysis results computed afresh, in transactions of 500 measurands, each
 * read and written in a few statements (`recomputeAnalytesMetas`). One transaction per measurand
 * cost 5,900 commits and ~20 round trips each at 100× the demo data (decision 024).
 */
export async function recomputeAll(deps: Deps): Promise<{ measurands: number; ms: number }> {
  const started = performance.now();
  const ids = await listAnalyteIdsWithDatasets(deps.db);
  for (let i = 0; i < ids.length; i += RECOMPUTE_CHUNK) {
    const chunk = ids.slice(i, i + RECOMPUTE_CHUNK);
    await writeTransaction(deps, (tx) => recomputeAnalytesMetas(tx, chunk));
  }
  return { measurands: ids.length, ms: Math.round(performance.now() - started) };
}
