import { z } from 'zod';
import { errorsFor, IdSchema } from './common.js';
import { defineRoute, STAFF } from './route.js';

/**
 * Records whose changes are kept in the audit trail. `database` (id 1) is the whole database: its
 * trail lists every complete backup made of it (decision 038).
 */
export const AuditEntitySchema = z.enum([
  'bv_specification',
  'reference',
  'unit',
  'content_page',
  'database',
  'measurand',
  'local_estimate',
]);
export type AuditEntity = z.infer<typeof AuditEntitySchema>;

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  entity: AuditEntitySchema,
  entity_id: z.number().int(),
  action: z.enum([
    'create',
    'update',
    'delete',
    'appraisal_opened',
    'assessor_assigned',
    'appraisal_submitted',
    'appraisal_disputed',
    'appraisal_final',
    'export',
  ]),
  user_id: z.number().int().nullable(),
  user_email: z.string().nullable().describe('Who made the change (null when the account is gone)'),
  created_at: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  changed: z.array(z.string()).describe('Fields whose value differs between before and after'),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const getAuditHistory = defineRoute({
  method: 'GET',
  path: '/api/audit/:entity/:id',
  summary: 'The change history of one record (who, when, before and after), newest first',
  tags: ['audit'],
  access: STAFF,
  params: z.object({ entity: AuditEntitySchema, id: IdSchema }),
  responses: {
    200: z.object({ data: z.array(AuditEntrySchema) }),
    ...errorsFor(400, 401),
  },
});
