import type { Role, User } from '@bvdb/contract';
import type { UserRow } from './users.repository.js';

export const presentUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role as Role,
  active: row.active,
  version: row.version,
  created_at: row.createdAt.toISOString(),
});
