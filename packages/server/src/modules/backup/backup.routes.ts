import multipart from '@fastify/multipart';
import { DATABASE_IMPORT_MAX_BYTES, importDatabase } from '@bvdb/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../../lib/actor.js';
import { AppError } from '../../lib/app-error.js';
import { readUploadedFile } from '../../lib/read-upload.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { route, unauthenticated } from '../../plugins/contract-routes.js';
import { importDatabaseJson } from './backup-import.service.js';
import { backupFolderFor } from './before-replace-backup.js';

function requireAdmin(request: FastifyRequest): void {
  if (!request.user) throw unauthenticated();
  if (request.user.role !== 'admin')
    throw new AppError('forbidden', 'Only an administrator may import a database');
}

/**
 * The file's bytes, never made one string: they are read a row at a time, a turn of the event loop
 * handed back every few milliseconds (a 61 MB file at 100× the demo decoded and parsed whole held it
 * for 0.9 s, issue 44.1).
 */
async function readUpload(request: FastifyRequest): Promise<Buffer> {
  const { bytes } = await readUploadedFile(request, {
    maxBytes: DATABASE_IMPORT_MAX_BYTES,
    choose: 'Choose a bv_database.json file',
    hint: 'import it with npm run import on the server',
  });
  return bytes;
}

/** The import page's endpoint. A plugin of its own: multipart with this size limit only here. */
export async function registerBackupRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: DATABASE_IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  const deps = serviceDeps(app);
  route(app, importDatabase, async ({ query, request }) => {
    requireAdmin(request);
    const bytes = await readUpload(request);
    const asked = { mode: query.mode, dryRun: query.dry_run ?? false, userId: request.user?.id };
    try {
      const summary = await importDatabaseJson(deps, bytes, {
        mode: query.mode,
        dryRun: query.dry_run,
        recompute: query.recompute,
        clearAbsent: query.clear_absent,
        allowFull: true,
        backupFolder: backupFolderFor(deps.config),
        role: actorOf(request).role,
        ...(request.user ? { importer: { id: request.user.id, email: request.user.email } } : {}),
        confirm: query.confirm,
      });
      // An operator reads what an import changed in the log, not only the administrator's page.
      request.log.info(
        {
          import: {
            ...asked,
            written: summary.written,
            rows: summary.tables.reduce((n, t) => n + t.rows, 0),
            deleted: summary.deletes.reduce((n, t) => n + t.rows, 0),
            ms: summary.import_ms,
            recompute: summary.recompute,
            backupFile: summary.backup_file,
          },
        },
        summary.written ? 'database import written' : 'database import previewed',
      );
      return summary;
    } catch (err) {
      request.log.warn(
        { import: asked, reason: err instanceof Error ? err.message.slice(0, 500) : String(err) },
        'database import refused or failed',
      );
      throw err;
    }
  });
}
