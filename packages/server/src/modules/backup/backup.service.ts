import { AppError } from '../../lib/app-error.js';
import { LOINC_NOTICE } from '@bvdb/domain';
import { exportNotice } from '../../lib/export-notice.js';
import { nextTurn } from '../../lib/loop-turns.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { blindViewFor, SEES_EVERYTHING } from '../appraisals/index.js';
import { recordAudit } from '../audit/index.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, tableShape, type BackupScope } from './backup-file.js';
import { tablesOf } from './backup-tables.js';
import * as repo from './backup.repository.js';

/**
 * Who asks for an export: a signed-in user, the operator's command line, the server itself saving
 * the database before a replace import, or anyone (null). Only a user can be blind to a round.
 */
export type Exporter = { userId: number; email: string } | 'command line' | 'before a replace' | null;

const userOf = (by: Exporter) => (by !== null && typeof by === 'object' ? by : null);

type ExportOptions = {
  sendsFile?: boolean;
  release?: { version: string; licence: string };
  /** The time the file says it was made (a release's files say the release's date). */
  exportedAt?: Date;
};

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
  opts: ExportOptions = {},
): Promise<string[]> {
  const { bodies, withheld } = await readTables(db, scope, by, opts);
  const chunks = [fileHead(scope, opts, withheld)];
  // A slice of rows joined per turn of the event loop (see streamPublishedDatabaseJson).
  for (const chunk of tableChunks(tablesOf(scope === 'full'), bodies)) {
    chunks.push(chunk);
    await nextTurn();
  }
  return chunks;
}

/**
 * The published file as it is made: its head leaves before a table is read, so the first bytes of
 * a first ask at 100× the demo data go out at once (issue 44.2) instead of after every table's
 * read (5.7 s). The published scope withholds nothing, so the head is known before the read; the
 * tables are still read in one snapshot, and no transaction waits on the reader. Same bytes as
 * `exportDatabaseJson` for the same `exportedAt`.
 */
export async function* streamPublishedDatabaseJson(
  db: ServiceDeps['db'],
  opts: Omit<ExportOptions, 'sendsFile'> = {},
): AsyncGenerator<string> {
  const exportedAt = opts.exportedAt ?? new Date();
  yield fileHead('published', { ...opts, exportedAt }, undefined);
  const { bodies } = await readTables(db, 'published', null, { ...opts, exportedAt });
  // A chunk joined per turn of the event loop: joining them all at once held it for 210–440 ms at
  // 100× on a slow machine (issue 44.1).
  for (const chunk of tableChunks(tablesOf(false), bodies)) {
    yield chunk;
    await nextTurn();
  }
}

async function readTables(
  db: ServiceDeps['db'],
  scope: BackupScope,
  by: Exporter,
  opts: ExportOptions,
): Promise<{ bodies: string[][]; withheld: Record<string, number> | undefined }> {
  if (scope === 'full' && by === null) throw new AppError('unauthorized', 'You need to sign in to do that');
  const tables = tablesOf(scope === 'full');
  const { bodies, withheld } = await db.transaction(
    async (tx) => {
      // Read in the same snapshot as the rows, so what is counted as withheld is what is left out.
      const view =
        scope === 'full' && userOf(by) ? await blindViewFor(tx, userOf(by)!.userId) : SEES_EVERYTHING;
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
  if (scope === 'full' && opts.sendsFile !== false) {
    // Before a byte is sent (a HEAD sends none): no backup leaves without its entry (who, when, what was left out).
    await recordAudit(db, {
      userId: userOf(by)?.userId ?? null,
      entity: 'database',
      entityId: 1, // the one database: its trail is /api/audit/database/1
      action: 'export',
      after: {
        scope,
        by: userOf(by)?.email ?? (by === 'before a replace' ? 'before a replace import' : 'command line'),
        ...(withheld ? { withheld } : {}),
      },
    });
  }
  return { bodies, withheld };
}

function fileHead(
  scope: BackupScope,
  opts: ExportOptions,
  withheld: Record<string, number> | undefined,
): string {
  const release =
    opts.release ??
    exportNotice({ DATA_USE_NOTICE: undefined, CITATION: undefined, DATA_LICENCE: undefined });
  const head = JSON.stringify({
    format: BACKUP_FORMAT,
    format_version: BACKUP_FORMAT_VERSION,
    exported_at: (opts.exportedAt ?? new Date()).toISOString(),
    scope,
    ...(withheld ? { withheld } : {}),
    // The release that wrote the file and the terms of its data (DATA_LICENCE); readers ignore them.
    bvdb_version: release.version,
    data_licence: release.licence,
    // Its measurand_codes hold LOINC codes: LOINC's licence asks for its notice wherever they go (decision 093).
    loinc_notice: LOINC_NOTICE,
  });
  return `${head.slice(0, -1)},\n"tables":{`;
}

const ROWS_PER_CHUNK = 200;

/** The tables' part of the file, each slice of rows joined as it is asked for. */
function* tableChunks(tables: ReturnType<typeof tablesOf>, bodies: string[][]): Generator<string> {
  for (const [i, t] of tables.entries()) {
    const rows = bodies[i]!;
    yield `${i > 0 ? ',' : ''}\n${JSON.stringify(t.name)}:[`;
    // Rows joined in slices: one string of the whole file would be needlessly large, and a slice
    // of a thousand datasets (~5 MB) held the loop ~75 ms at 100× on a slow machine.
    for (let k = 0; k < rows.length; k += ROWS_PER_CHUNK) {
      yield `${k > 0 ? ',' : ''}\n${rows.slice(k, k + ROWS_PER_CHUNK).join(',\n')}`;
    }
    yield ']';
  }
  yield '\n}}\n';
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
