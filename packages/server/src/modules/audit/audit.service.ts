import type { AuditEntity, AuditEntry } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { presentAuditEntry } from './audit.presenter.js';
import * as repo from './audit.repository.js';

/** Call inside the transaction of the write it describes, so the trail and the change land together. */
export const recordAudit = (tx: DbOrTx, rec: repo.AuditRecord): Promise<void> => repo.recordAudit(tx, rec);

/**
 * One record's change history, newest first, without the entries the caller may not read (`hidden`:
 * ids from the appraisals' blind rule, decision 038).
 */
export async function listAudit(
  db: DbOrTx,
  entity: AuditEntity,
  entityId: number,
  hidden: ReadonlySet<number> = new Set(),
): Promise<AuditEntry[]> {
  return (await repo.listAudit(db, entity, entityId))
    .filter((row) => !hidden.has(row.log.id))
    .map(presentAuditEntry);
}

/** Every entry's details of these records: what an entry says, for rules that read it. */
export const listAuditDetails = (
  db: DbOrTx,
  entity: AuditEntity,
  entityIds: number[],
): Promise<{ id: number; before: unknown; after: unknown }[]> => repo.listAuditDetails(db, entity, entityIds);

/** Who created the record, from its trail (null when unknown). */
export const findCreatorId = (db: DbOrTx, entity: AuditEntity, entityId: number): Promise<number | null> =>
  repo.findCreatorId(db, entity, entityId);
