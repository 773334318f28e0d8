import { REFERENCE_FILE_MAX_BYTES, uploadReferenceFile } from '@bvdb/contract';
import { ApiError, urlFor } from '../../../lib/api-client';

/** The article PDF as multipart/form-data (the typed JSON client does not send files). */
export async function uploadReferenceFileCall(id: number, file: File, csrfToken: string | null) {
  if (file.size > REFERENCE_FILE_MAX_BYTES) {
    throw new ApiError(400, 'Bad Request', 'The file is too large (20 MB at most)');
  }
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await fetch(urlFor(uploadReferenceFile, { params: { id } }), {
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
  return uploadReferenceFile.responses[200].parse(json);
}
