import { AppError } from '../../lib/app-error.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, tableShape, type BackupScope } from './backup-file.js';
import { tablesOf } from './backup-tables.js';
import * as repo from './backup.repository.js';

export { BACKUP_FORMAT_VERSION, describeProblem, type BackupScope } from './backup-file.js';

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
