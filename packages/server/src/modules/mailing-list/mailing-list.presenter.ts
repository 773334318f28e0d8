import type { MailingListMember } from '@bvdb/contract';
import type { mailingListMembers } from '../../db/schema.js';

export function presentMember(r: typeof mailingListMembers.$inferSelect): MailingListMember {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    synced_at: r.syncedAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}
