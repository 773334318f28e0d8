import {
  assignAssessor,
  getAgreement,
  getAppraisalBoard,
  getMyAppraisal,
  listMyAppraisals,
  openAppraisal,
  submitAppraisal,
} from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../../lib/actor.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { AppraisalService } from './appraisals.service.js';

const userIdOf = (request: FastifyRequest): number => {
  if (!request.user) throw unauthenticated();
  return request.user.id;
};

/** The appraisal workflow (decision 008); each route's roles are in the contract. */
export function registerAppraisalRoutes(app: FastifyInstance): void {
  const service = () => new AppraisalService(serviceDeps(app));

  route(app, listMyAppraisals, async ({ request }) => ({ data: await service().mine(userIdOf(request)) }));
  route(app, getMyAppraisal, async ({ params, request }) => service().one(params.id, userIdOf(request)));
  route(app, submitAppraisal, async ({ params, body, request }) =>
    service().submit(params.id, body, actorOf(request)),
  );
  route(app, getAppraisalBoard, async ({ query, request }) =>
    service().board(query.state, userIdOf(request)),
  );
  route(app, openAppraisal, async ({ params, request, reply }) =>
    reply.code(201).send(await service().open(params.id, userIdOf(request))),
  );
  route(app, assignAssessor, async ({ params, body, request }) =>
    service().assign(params.id, body, userIdOf(request)),
  );
  route(app, getAgreement, async ({ query, request }) =>
    service().agreement(query.from, query.to, userIdOf(request)),
  );
}
