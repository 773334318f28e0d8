import { getQueueJob, latestMetaJobs, listQueueJobs, startMetaRecompute } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../lib/actor.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { presentJob } from './jobs.presenter.js';
import * as service from './jobs.service.js';

/** The background jobs' tracker and the start of a meta-analysis recomputation. */
export function registerJobRoutes(app: FastifyInstance): void {
  route(app, getQueueJob, async ({ params }) => ({
    code: 'success' as const,
    data: presentJob(await service.findJob(serviceDeps(app), params.id)),
  }));

  route(app, listQueueJobs, async () => ({
    code: 'success' as const,
    data: (await service.listRecentJobs(serviceDeps(app))).map(presentJob),
  }));

  route(app, latestMetaJobs, async () => {
    const { meta, consolidated } = await service.latestMetaJobs(serviceDeps(app));
    return {
      meta: meta ? presentJob(meta) : null,
      consolidated: consolidated ? presentJob(consolidated) : null,
    };
  });

  route(app, startMetaRecompute, async ({ body, request, reply }) => {
    const { meta, consolidated } = await service.startMetaRecompute(
      serviceDeps(app),
      actorOf(request),
      body.analyte_ids,
    );
    return reply.status(202).send({ meta: presentJob(meta), consolidated: presentJob(consolidated) });
  });
}
