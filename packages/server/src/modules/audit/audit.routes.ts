import { getAuditHistory } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { route } from '../../plugins/contract-routes.js';
import { listAudit } from './audit.service.js';

export function registerAuditRoutes(app: FastifyInstance): void {
  route(app, getAuditHistory, async ({ params }) => ({
    data: await listAudit(app.deps.database.db, params.entity, params.id),
  }));
}
