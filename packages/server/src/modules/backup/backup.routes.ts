import multipart from '@fastify/multipart';
import { DATABASE_IMPORT_MAX_BYTES, importDatabase } from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { importDatabaseJson } from './backup.service.js';

const MAX_MB = DATABASE_IMPORT_MAX_BYTES / (1024 * 1024);

function requireAdmin(request: FastifyRequest): void {
  if (!request.user) throw unauthenticated();
  if (request.user.role !== 'admin')
    throw new AppError('forbidden', 'Only an administrator may import a database');
}

async function readUpload(request: FastifyRequest): Promise<string> {
  if (!request.isMultipart()) {
    throw new AppError('bad_request', 'Send the file as multipart/form-data, in a part named "file"');
  }
  const part = await request.file({ limits: { fileSize: DATABASE_IMPORT_MAX_BYTES, files: 1 } });
  if (!part || part.fieldname !== 'file') {
    throw new AppError('bad_request', 'No file was sent (expected a part named "file")', {
      fields: [{ path: 'file', message: 'Choose a bv_database.json file' }],
    });
  }
  try {
    const bytes = await part.toBuffer();
    if (bytes.length === 0) {
      throw new AppError('bad_request', 'The file is empty', {
        fields: [{ path: 'file', message: 'The file is empty' }],
      });
    }
    return bytes.toString('utf8');
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      const message = `The file is too large (${MAX_MB} MB at most): import it with npm run import on the server`;
      throw new AppError('bad_request', message, { fields: [{ path: 'file', message }] });
    }
    throw err;
  }
}

/** The import page's endpoint. A plugin of its own: multipart with this size limit only here. */
export async function registerBackupRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: DATABASE_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  const deps = serviceDeps(app);
  route(app, importDatabase, async ({ query, request }) => {
    requireAdmin(request);
    const text = await readUpload(request);
    return importDatabaseJson(deps, text, {
      mode: query.mode,
      dryRun: query.dry_run,
      recompute: query.recompute,
      allowFull: true,
    });
  });
}
