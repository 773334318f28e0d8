import { createHash } from 'node:crypto';

/**
 * A kept answer's ETag: weak, the first 27 characters of its SHA-1 in base64url. The same bytes get
 * the same ETag wherever it is made (the event loop, the compression thread, another process).
 */
export function contentEtag(body: string | Uint8Array): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}
