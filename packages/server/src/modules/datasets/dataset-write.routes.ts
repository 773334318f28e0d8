import { createDataset, deleteDataset, getDatasetForm, updateDataset } from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { DatasetWriteService } from './dataset-write.service.js';

function userIdOf(request: FastifyRequest): number {
  if (!request.user) throw unauthenticated();
  return request.user.id;
}

/** Dataset (BV specification) writes and the edit form's read; all signed-in. */
export function registerDatasetWriteRoutes(app: FastifyInstance): void {
  const writes = new DatasetWriteService(serviceDeps(app));

  route(app, createDataset, async ({ body, request, reply }) => {
    const dataset = await writes.create(body.bv_specification, userIdOf(request));
    return reply.status(201).send({ dataset });
  });

  route(app, getDatasetForm, async ({ params, reply }) => {
    void reply.header('Cache-Control', 'private, no-store');
    return writes.form(params.id);
  });

  route(app, updateDataset, async ({ params, body, request }) => ({
    dataset: await writes.update(params.id, body.bv_specification, body.version, userIdOf(request)),
  }));

  route(app, deleteDataset, async ({ params, query, request }) => {
    await writes.remove(params.id, query.version, userIdOf(request));
    return { code: 'success' as const };
  });
}
