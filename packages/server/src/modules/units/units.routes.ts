import { createUnit, deleteUnit, listUnits, updateUnit } from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { UnitService } from './units.service.js';

const userIdOf = (request: FastifyRequest): number => {
  if (!request.user) throw unauthenticated();
  return request.user.id;
};

export function registerUnitRoutes(app: FastifyInstance): void {
  const service = new UnitService(serviceDeps(app));
  route(app, listUnits, async () => ({ data: await service.list() }));
  route(app, createUnit, async ({ body, request, reply }) =>
    reply.status(201).send({ unit: await service.create(body.name, userIdOf(request)) }),
  );
  route(app, updateUnit, async ({ params, body, request }) => ({
    unit: await service.rename(params.id, body, userIdOf(request)),
  }));
  route(app, deleteUnit, async ({ params, query, request }) => {
    await service.remove(params.id, userIdOf(request), query.version);
    return { code: 'success' as const };
  });
}
