import { healthz, readyz } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { pingDatabase } from '../../db/client.js';
import { route } from '../../plugins/contract-routes.js';

export function registerHealthRoutes(app: FastifyInstance): void {
  route(app, healthz, async () => ({ status: 'ok' as const }));
  route(app, readyz, async ({ reply }) => {
    try {
      await pingDatabase(app.deps.database.db);
      return { status: 'ready' as const };
    } catch (err) {
      return reply.status(503).send({ status: 'unavailable', message: (err as Error).message });
    }
  });
}
