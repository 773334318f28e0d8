import { getAuditHistory } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { listAudit } from './audit.service.js';

export function registerAuditRoutes(app: FastifyInstance): void {
  const { db } = serviceDeps(app);
  route(app, getAuditHistory, async ({ params }) => ({
    data: await listAudit(db, params.entity, params.id),
  }));
}
