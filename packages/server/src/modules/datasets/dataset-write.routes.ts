import { createDataset, deleteDataset, getDatasetForm, updateDataset } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../lib/actor.js';
import { serviceDeps, type ServiceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { DatasetWriteService, type NewDatasetAppraisal } from './dataset-write.service.js';

/**
 * Dataset (BV specification) writes and the edit form's read; all signed-in. `appraisals` is the
 * appraisal workflow new datasets enter when the site appraises them first (given by app.ts).
 */
export function registerDatasetWriteRoutes(
  app: FastifyInstance,
  appraisals: (deps: ServiceDeps) => NewDatasetAppraisal,
): void {
  const deps = serviceDeps(app);
  const writes = new DatasetWriteService(deps, appraisals(deps));

  route(app, createDataset, async ({ body, request, reply }) => {
    const dataset = await writes.create(body.bv_specification, actorOf(request));
    return reply.status(201).send({ dataset });
  });

  route(app, getDatasetForm, async ({ params, reply }) => {
    void reply.header('Cache-Control', 'private, no-store');
    return writes.form(params.id);
  });

  route(app, updateDataset, async ({ params, body, request }) => ({
    dataset: await writes.update(params.id, body.bv_specification, body.version, actorOf(request)),
  }));

  route(app, deleteDataset, async ({ params, query, request }) => {
    await writes.remove(params.id, query.version, actorOf(request));
    return { code: 'success' as const };
  });
}
