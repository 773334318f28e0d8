import type { RouteDef } from '@bvdb/contract';
import { ApiError, urlFor, type Success } from './api-client';
import { withSchemas } from './route-ref';

/**
 * One file sent as multipart/form-data (a part named `file`) to a contract route, the answer parsed
 * with the contract's schema. The typed JSON client (`apiCall`) does not send files; every upload of
 * the app (database import, article PDF, bulk datasets) goes through here.
 */
export async function uploadFile<D extends RouteDef>(
  def: D,
  file: File,
  opts: {
    csrfToken: string | null;
    /** Refused before sending when larger, with `tooLarge` as the message (a 413 like the server's, decision 086). */
    maxBytes: number;
    tooLarge: string;
    params?: Record<string, string | number>;
    query?: Record<string, string | number | undefined | null>;
  },
): Promise<Success<D>> {
  if (file.size > opts.maxBytes) throw new ApiError(413, 'Payload Too Large', opts.tooLarge);
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await fetch(urlFor(def, { params: opts.params, query: opts.query }), {
    method: def.method,
    body: form,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(opts.csrfToken ? { 'X-CSRF-Token': opts.csrfToken } : {}) },
  });
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const message =
      json && typeof json === 'object' && 'message' in json && typeof json.message === 'string'
        ? json.message
        : `Error: ${res.status} ${res.statusText}`;
    throw new ApiError(res.status, res.statusText, message, json);
  }
  const schema = (await withSchemas(def)).responses[res.status];
  return (schema ? schema.parse(json) : json) as Success<D>;
}
