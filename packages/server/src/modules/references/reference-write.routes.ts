import multipart from '@fastify/multipart';
import {
  createReference,
  deleteReference,
  deleteReferenceFile,
  getReferenceFile,
  REFERENCE_FILE_MAX_BYTES,
  updateReference,
  uploadReferenceFile,
} from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../lib/app-error.js';
import { FileCache } from '../../lib/file-cache.js';
import { readUploadedFile } from '../../lib/read-upload.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { PDF_TYPE, ReferenceFileService } from './reference-file.service.js';
import { ReferenceWriteService } from './reference-write.service.js';
import { articleFileDisposition } from './references.presenter.js';

function userIdOf(request: FastifyRequest): number {
  if (!request.user) throw unauthenticated();
  return request.user.id;
}

/** The article PDF, refused past the size limit without buffering it all. */
const readUpload = (request: FastifyRequest) =>
  readUploadedFile(request, { maxBytes: REFERENCE_FILE_MAX_BYTES, choose: 'Choose a PDF file' });

/**
 * Reference writes and the article file. A plugin of its own: the multipart parser is registered
 * only in this scope, so no other route accepts multipart bodies.
 */
export async function registerReferenceWriteRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: REFERENCE_FILE_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024 },
  });
  const deps = serviceDeps(app);
  const copies = FileCache.forConfig(deps.config);
  app.addHook('onClose', () => copies.close());
  const writes = new ReferenceWriteService(deps, copies);
  const files = new ReferenceFileService(deps, copies);

  route(app, createReference, async ({ body, request, reply }) => {
    const reference = await writes.create(body, userIdOf(request));
    return reply.status(201).send({ reference });
  });

  route(app, updateReference, async ({ params, body, request }) => ({
    reference: await writes.update(params.id, body, userIdOf(request)),
  }));

  route(app, deleteReference, async ({ params, query, request }) => {
    await writes.remove(params.id, userIdOf(request), query.version);
    return { code: 'success' as const };
  });

  route(app, uploadReferenceFile, async ({ params, request }) => {
    const upload = await readUpload(request);
    return { reference: await files.attach(params.id, upload, userIdOf(request)) };
  });

  route(app, deleteReferenceFile, async ({ params, request }) => ({
    reference: await files.detach(params.id, userIdOf(request)),
  }));

  route(app, getReferenceFile, async ({ params, request, reply }) => {
    const file = await files.describe(params.id);
    if (!file) throw notFound(`The file of reference ${params.id}`);
    const etag = `"${file.sha256}"`;
    void reply
      .header('ETag', etag)
      .header('Cache-Control', 'private, max-age=0, must-revalidate')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Content-Disposition', articleFileDisposition(file.fileName));
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    // From a copy on disk, not from the database on the event loop (issue 17 point 8, decision 032).
    const body = app.deps.downloads.pace(await files.read(params.id, file));
    return reply.type(PDF_TYPE).header('Content-Length', String(file.size)).send(body);
  });
}
