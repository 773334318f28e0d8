import type { Tx } from '../../db/client.js';
import { requestRecompute } from '../recompute-queue/index.js';
import type { ActorRole } from '../../lib/recompute-door.js';
import { tableShape, type BackupFile } from './backup-file.js';
import { EXPORT_TABLES } from './backup-tables.js';
import * as repo from './backup.repository.js';
import { anotherImportRunning } from './import-guard.js';
import { assertAdministratorLeft, type ImportPlan } from './import-plan.js';

export interface Written {
  /** Datasets "in appraisal" with no round left, returned to final. */
  returnedToFinal: number;
  /** The recompute request's tracker record, written with the data (decision 016). */
  tracker?: { id: number; progressMax: number };
}

/**
 * The import's one transaction: take the import lock (another import running → 409), put aside the
 * rows of the tables a replace keeps, empty what it replaces (children first), insert the file's
 * rows and put the kept ones back (parents first), then check what must hold afterwards.
 */
export async function writeImport(
  tx: Tx,
  file: BackupFile,
  plan: ImportPlan,
  opts: { merge: boolean; recompute?: boolean; role: ActorRole },
): Promise<Written> {
  if (!(await repo.tryTakeImportLock(tx))) throw anotherImportRunning();
  for (const t of plan.keep) await repo.stashRows(tx, t.name);
  const emptied = new Set([...plan.clear, ...plan.keep].map((t) => t.name));
  for (const t of [...EXPORT_TABLES].reverse()) {
    if (emptied.has(t.name)) await repo.deleteAllRows(tx, t.name);
  }
  const inserted = new Set(plan.insert.map((t) => t.name));
  const kept = new Set(plan.keep.map((t) => t.name));
  for (const t of EXPORT_TABLES) {
    const { columns, primaryKey, serialId, foreignKeys } = tableShape(t);
    if (inserted.has(t.name)) {
      const rows = file.tables[t.name]!;
      if (rows.length === 0) continue;
      await repo.insertRows(tx, t.name, Object.keys(rows[0]!), rows, opts.merge ? { primaryKey } : undefined);
      if (serialId) await repo.moveSequencePastIds(tx, t.name);
    } else if (kept.has(t.name)) {
      await repo.restoreStashedRows(tx, t.name, [...columns.keys()], foreignKeys);
    }
  }
  await assertAdministratorLeft(tx);
  const returnedToFinal = await repo.closeAppraisalsWithoutRound(tx);
  await repo.markDemoDeclined(tx);
  // The recompute is asked for through the door in this transaction (decision 048): a crash after
  // the commit leaves the request, and the worker's drain (at the next start) computes it.
  const tracker = opts.recompute
    ? await requestRecompute(tx, { cause: { kind: 'import', role: opts.role } })
    : undefined;
  return { returnedToFinal, tracker };
}
