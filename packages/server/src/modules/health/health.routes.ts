import { BVDB_VERSION, healthz, readyz } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { checkReadiness } from './health.service.js';

export function registerHealthRoutes(app: FastifyInstance): void {
  const deps = serviceDeps(app);
  route(app, healthz, async () => ({ status: 'ok' as const, version: BVDB_VERSION }));
  route(app, readyz, async ({ request, reply }) => {
    // Shutting down (SIGTERM): a load balancer stops sending new requests during the drain window.
    if (app.lifecycle.draining)
      return reply.status(503).send({ status: 'unavailable', message: 'shutting down' });
    // Starting: the public catalogue is being kept (decision 072); every request is served meanwhile.
    const warming = app.lifecycle.warmingUp?.();
    if (warming) return reply.status(503).send({ status: 'unavailable', message: warming });
    const readiness = await checkReadiness(deps, request.log);
    if (readiness.ready) return { status: 'ready' as const };
    return reply.status(503).send({ status: 'unavailable', message: readiness.message });
  });
}
