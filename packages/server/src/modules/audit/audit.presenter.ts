import type { AuditEntity, AuditEntry } from '@bvdb/contract';
import type { AuditRow } from './audit.repository.js';

/** The fields whose values differ between two snapshots (bookkeeping fields left out). */
function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys]
    .filter((k) => !['updated_at', 'updatedAt', 'version'].includes(k))
    .filter((k) => JSON.stringify(before?.[k] ?? null) !== JSON.stringify(after?.[k] ?? null))
    .sort();
}

export function presentAuditEntry({ log, email }: AuditRow): AuditEntry {
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
}
