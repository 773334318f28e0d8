import { getAuditHistory } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { blindViewFor } from '../appraisals/appraisals-blind.service.js';
import { listAudit } from './audit.service.js';

export function registerAuditRoutes(app: FastifyInstance): void {
  const { db } = serviceDeps(app);
  // An assessor of an open round reads none of its appraisals here either (decision 038).
  route(app, getAuditHistory, async ({ params, request }) => {
    const view = await blindViewFor(db, request.user?.id ?? null);
    return { data: await listAudit(db, params.entity, params.id, view.auditEntryIds) };
  });
}
