import type { Unit } from '@bvdb/contract';
import type { units } from '../../db/schema.js';

type Row = typeof units.$inferSelect;

export function presentUnit(row: Pick<Row, 'id' | 'name' | 'version'>, usageCount: number): Unit {
  return { id: row.id, name: row.name, usage_count: usageCount, version: row.version };
}

/** What the audit trail keeps of a unit. */
export const auditSnapshot = (u: Pick<Row, 'id' | 'name' | 'version'>) => ({
  id: u.id,
  name: u.name,
  version: u.version,
});
