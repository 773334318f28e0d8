import multipart from '@fastify/multipart';
import {
  commitDatasetUpload,
  DATASET_UPLOAD_MAX_BYTES,
  getDatasetTemplate,
  previewDatasetUpload,
} from '@bvdb/contract';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../../lib/actor.js';
import { cachedFile } from '../../lib/cached-json.js';
import { readUploadedFile } from '../../lib/read-upload.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route } from '../../plugins/contract-routes.js';
import { presentUploadPreview } from './dataset-upload.presenter.js';
import { buildTemplate, checkUpload, commitUpload } from './dataset-upload.service.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const readSheetUpload = (request: FastifyRequest) =>
  readUploadedFile(request, {
    maxBytes: DATASET_UPLOAD_MAX_BYTES,
    choose: 'Choose the filled template (.xlsx) or a CSV file',
    hint: 'split the rows over several files',
  });

/**
 * Bulk entry of datasets: the template and the upload (preview, then commit). A plugin of its own:
 * multipart with this size limit only here.
 */
export async function registerDatasetUploadRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: DATASET_UPLOAD_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  const deps = serviceDeps(app);

  // The lookup lists change rarely: one build per data generation, the same file for everyone.
  route(app, getDatasetTemplate, async ({ request, reply }) =>
    cachedFile(request, reply, { type: XLSX, compress: false, sameForEveryone: true }, async () => ({
      bytes: await buildTemplate(deps.db),
      headers: { 'Content-Disposition': contentDisposition('bvdb_datasets_template.xlsx') },
    })),
  );

  route(app, previewDatasetUpload, async ({ request }) => {
    const { bytes, fileName } = await readSheetUpload(request);
    return presentUploadPreview(await checkUpload(deps, bytes, fileName));
  });

  route(app, commitDatasetUpload, async ({ request, reply }) => {
    const actor = actorOf(request);
    const { bytes, fileName } = await readSheetUpload(request);
    const result = await commitUpload(deps, bytes, fileName, actor);
    return reply.status(201).send(result);
  });
}
