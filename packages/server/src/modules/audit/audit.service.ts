import type { AuditEntity, AuditEntry } from '@bvdb/contract';
import type { DbOrTx } from '../../db/client.js';
import { presentAuditEntry } from './audit.presenter.js';
import * as repo from './audit.repository.js';

export type { AuditRecord } from './audit.repository.js';

/** Call inside the transaction of the write it describes, so the trail and the change land together. */
export const recordAudit = (tx: DbOrTx, rec: repo.AuditRecord): Promise<void> => repo.recordAudit(tx, rec);

/** One record's change history, newest first. */
export async function listAudit(db: DbOrTx, entity: AuditEntity, entityId: number): Promise<AuditEntry[]> {
  return (await repo.listAudit(db, entity, entityId)).map(presentAuditEntry);
}

/** Who created the record, from its trail (null when unknown). */
export const findCreatorId = (db: DbOrTx, entity: AuditEntity, entityId: number): Promise<number | null> =>
  repo.findCreatorId(db, entity, entityId);
