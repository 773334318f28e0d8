import { healthz, readyz } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { checkReadiness } from './health.service.js';

export function registerHealthRoutes(app: FastifyInstance): void {
  const deps = serviceDeps(app);
  route(app, healthz, async () => ({ status: 'ok' as const }));
  route(app, readyz, async ({ reply }) => {
    const readiness = await checkReadiness(deps);
    if (readiness.ready) return { status: 'ready' as const };
    return reply.status(503).send({ status: 'unavailable', message: readiness.message });
  });
}
