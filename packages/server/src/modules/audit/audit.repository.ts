import type { AuditEntity, AuditEntry } from '@bvdb/contract';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { auditLog, users } from '../../db/schema.js';

export interface AuditRecord {
  userId: number | null;
  entity: AuditEntity;
  entityId: number;
  action: AuditEntry['action'];
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Call inside the transaction of the write it describes, so the trail and the change land together. */
export async function recordAudit(tx: DbOrTx, rec: AuditRecord): Promise<void> {
  await tx.insert(auditLog).values({
    userId: rec.userId,
    entity: rec.entity,
    entityId: rec.entityId,
    action: rec.action,
    before: toJson(rec.before),
    after: toJson(rec.after),
  });
}

// Dates and other non-JSON values become their JSON form, so before/after compare as stored.
function toJson(value: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  return value ? (JSON.parse(JSON.stringify(value)) as Record<string, unknown>) : null;
}

/** The newest 500 entries of one record's trail, with the e-mail of whoever made each change. */
export async function listAudit(db: DbOrTx, entity: AuditEntity, entityId: number) {
  return db
    .select({ log: auditLog, email: users.email })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, entityId)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(500);
}

export type AuditRow = Awaited<ReturnType<typeof listAudit>>[number];

/** Who created the record (null when unknown: seeded, imported, or the account is gone). */
export async function findCreatorId(db: DbOrTx, entity: AuditEntity, entityId: number) {
  const [row] = await db
    .select({ userId: auditLog.userId })
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, entityId), eq(auditLog.action, 'create')))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row?.userId ?? null;
}

/** The details of every entry of these records (the blind rule reads them: decision 038). */
export async function listAuditDetails(db: DbOrTx, entity: AuditEntity, entityIds: number[]) {
  if (entityIds.length === 0) return [];
  return db
    .select({ id: auditLog.id, before: auditLog.before, after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), inArray(auditLog.entityId, entityIds)));
}
