import { createUserRoute, listUsers, resetUserPassword, updateUser } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { UserAdminService } from './users.service.js';

/** The administration of users: administrators only (the contract's access says so). */
export function registerUserRoutes(app: FastifyInstance): void {
  const service = () => new UserAdminService(serviceDeps(app));

  route(app, listUsers, async () => ({ data: await service().list() }));

  route(app, createUserRoute, async ({ body, reply }) => reply.code(201).send(await service().create(body)));

  route(app, updateUser, async ({ params, body, request }) => {
    if (!request.user) throw unauthenticated();
    return service().update(params.id, body, request.user.id);
  });

  route(app, resetUserPassword, async ({ params, body }) => {
    await service().setPassword(params.id, body.password);
    return { code: 'success' as const };
  });
}
