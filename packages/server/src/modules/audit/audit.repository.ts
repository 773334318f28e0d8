import type { AuditEntity, AuditEntry } from '@bvdb/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { auditLog, users } from '../../db/schema.js';

export interface AuditRecord {
  userId: number | null;
  entity: AuditEntity;
  entityId: number;
  action: 'create' | 'update' | 'delete';
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

export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys]
    .filter((k) => !['updated_at', 'updatedAt', 'version'].includes(k))
    .filter((k) => JSON.stringify(before?.[k] ?? null) !== JSON.stringify(after?.[k] ?? null))
    .sort();
}

export async function listAudit(db: DbOrTx, entity: AuditEntity, entityId: number): Promise<AuditEntry[]> {
  const rows = await db
    .select({ log: auditLog, email: users.email })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.userId))
    .where(and(eq(auditLog.entity, entity), eq(auditLog.entityId, entityId)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(500);
  return rows.map(({ log, email }) => {
    const before = (log.before as Record<string, unknown> | null) ?? null;
    const after = (log.after as Record<string, unknown> | null) ?? null;
    return {
      id: log.id,
      entity: log.entity as AuditEntity,
      entity_id: log.entityId,
      action: log.action as AuditEntry['action'],
      user_id: log.userId,
      user_email: email,
      created_at: log.createdAt.toISOString(),
      before,
      after,
      changed: changedFields(before, after),
    };
  });
}
