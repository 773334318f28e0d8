import { performance } from 'node:perf_hooks';
import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { writeTransaction } from '../../lib/write-transaction.js';
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

/**
 * The whole database as one JSON file, table by table with every field and id, read in one
 * snapshot. `published`: what anyone may see; `all`: with unpublished records (signed in);
 * `full`: also users, the audit trail, the mailing list, content pages and PDFs (a backup).
 */
export async function exportDatabaseJson(db: ServiceDeps['db'], scope: BackupScope): Promise<string[]> {
  const tables = tablesOf(scope === 'full');
  const bodies = await db.transaction(
    async (tx) => {
      const out: string[][] = [];
      for (const t of tables) {
        const where = scope === 'published' ? t.publicRows : undefined;
        out.push(await repo.readTableJson(tx, t.name, tableShape(t).primaryKey, where));
      }
      return out;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const head = JSON.stringify({
    format: BACKUP_FORMAT,
    format_version: BACKUP_FORMAT_VERSION,
    exported_at: new Date().toISOString(),
    scope,
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

export interface ImportSummary {
  format_version: number;
  scope: BackupScope;
  exported_at: string | null;
  tables: { name: string; rows: number; overwritten: number[] }[];
  existing: Record<(typeof CORE_TABLES)[number], number>;
  written: boolean;
  import_ms: number;
  recompute?: { measurands: number; ms: number };
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
