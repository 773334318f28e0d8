import multipart from '@fastify/multipart';
import {
  DATASET_RAW_DATA_MAX_BYTES,
  deleteDatasetRawData,
  downloadDatasetRawData,
  getDatasetRawData,
  uploadDatasetRawData,
} from '@bvdb/contract';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readUploadedFile } from '../../lib/read-upload.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { DatasetRawDataService } from './dataset-raw-data.service.js';

function userIdOf(request: FastifyRequest): number {
  if (!request.user) throw unauthenticated();
  return request.user.id;
}

/**
 * A dataset's raw-data file, staff only (issue 31.3). A plugin of its own: the multipart parser is
 * registered only in this scope.
 */
export async function registerDatasetRawDataRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: DATASET_RAW_DATA_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  const files = new DatasetRawDataService(serviceDeps(app));

  route(app, getDatasetRawData, async ({ params, reply }) => {
    void reply.header('Cache-Control', 'private, no-store');
    return { raw_data: await files.describe(params.id) };
  });

  route(app, downloadDatasetRawData, async ({ params, reply }) => {
    const file = await files.read(params.id);
    return reply
      .type(file.contentType)
      .header('Cache-Control', 'private, no-store')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Content-Disposition', contentDisposition(file.fileName))
      .header('Content-Length', String(file.bytes.length))
      .send(file.bytes);
  });

  route(app, uploadDatasetRawData, async ({ params, request }) => {
    const upload = await readUploadedFile(request, {
      maxBytes: DATASET_RAW_DATA_MAX_BYTES,
      choose: 'Choose the CSV, TSV or .xlsx file of the raw results',
    });
    return { raw_data: await files.attach(params.id, upload, userIdOf(request)) };
  });

  route(app, deleteDatasetRawData, async ({ params, request }) => ({
    raw_data: await files.detach(params.id, userIdOf(request)),
  }));
}
