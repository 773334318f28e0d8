import { DATABASE_IMPORT_MAX_BYTES, importDatabase, type ImportMode } from '@bvdb/contract';
import { ApiError, urlFor } from '../../../lib/api-client';

/** A whole-database file as multipart/form-data (the typed JSON client does not send files). */
export async function importDatabaseCall(
  file: File,
  opts: { mode: ImportMode; dryRun: boolean; recompute: boolean },
  csrfToken: string | null,
) {
  if (file.size > DATABASE_IMPORT_MAX_BYTES) {
    throw new ApiError(
      400,
      'Bad Request',
      `The file is too large (${DATABASE_IMPORT_MAX_BYTES / 1024 / 1024} MB at most): import it with npm run import on the server`,
    );
  }
  const form = new FormData();
  form.append('file', file, file.name);
  const url = urlFor(importDatabase, {
    query: { mode: opts.mode, dry_run: opts.dryRun ? '1' : '0', recompute: opts.recompute ? '1' : '0' },
  });
  const res = await fetch(url, {
    method: 'POST',
    body: form,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(csrfToken ? { 'X-CSRF-Token': csrfToken } : {}) },
  });
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const message =
      json && typeof json === 'object' && 'message' in json && typeof json.message === 'string'
        ? json.message
        : `Error: ${res.status} ${res.statusText}`;
    throw new ApiError(res.status, res.statusText, message, json);
  }
  return importDatabase.responses[200].parse(json);
}
