import { getAuditHistory } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { listAudit } from './audit.service.js';

/**
 * The audit entries a caller may not read (the appraisals' blind rule, decision 038). Given by the
 * application (app.ts), not imported: the appraisals module writes the audit trail, so the audit
 * module may not import it back (no module cycles, decision 048).
 */
export type HiddenAuditEntries = (db: DbOrTx, userId: number | null) => Promise<ReadonlySet<number>>;

export function registerAuditRoutes(app: FastifyInstance, hiddenEntries: HiddenAuditEntries): void {
  const { db } = serviceDeps(app);
  // An assessor of an open round reads none of its appraisals here either (decision 038).
  route(app, getAuditHistory, async ({ params, request }) => {
    const hidden = await hiddenEntries(db, request.user?.id ?? null);
    return { data: await listAudit(db, params.entity, params.id, hidden) };
  });
}
