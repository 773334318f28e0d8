import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';
import type { UploadedBytes } from './upload-reader.js';

/** RFC 2046 §5.1.1: a boundary has 1 to 70 characters. */
export const MULTIPART_BOUNDARY_MAX = 70;

/**
 * A boundary past the RFC's 70 characters is refused before the multipart parser sees it: busboy
 * throws a plain error on one past 252 (its search needle is 256 bytes at most), which was a 500.
 */
export function checkMultipartBoundary(contentType: string | undefined): void {
  const boundary = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const length = (boundary?.[1] ?? boundary?.[2] ?? '').length;
  if (length > MULTIPART_BOUNDARY_MAX) {
    throw new AppError(
      'bad_request',
      `The multipart boundary is ${length.toLocaleString('en-GB')} characters long: at most ${MULTIPART_BOUNDARY_MAX} characters are allowed (RFC 2046)`,
    );
  }
}

/**
 * The one `file` part of a multipart upload, refused past `maxBytes` without buffering it all.
 * Call it from a plugin that registered `@fastify/multipart` in its own scope. The size is checked
 * before anything reads the file (decision 086): every file past its limit answers 413, whatever it
 * holds, so a file that would fail to parse and a valid one of the same size get the same answer.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  opts: { maxBytes: number; choose: string; hint?: string },
): Promise<{ bytes: Buffer; fileName: string | undefined }> {
  if (!request.isMultipart()) {
    throw new AppError('bad_request', 'Send the file as multipart/form-data, in a part named "file"');
  }
  checkMultipartBoundary(request.headers['content-type']);
  const part = await request.file({ limits: { fileSize: opts.maxBytes, files: 1 } });
  if (!part || part.fieldname !== 'file') {
    throw new AppError('bad_request', 'No file was sent (expected a part named "file")', {
      fields: [{ path: 'file', message: opts.choose }],
    });
  }
  try {
    const bytes = await collectBytes(part.file, declaredSize(request, opts.maxBytes));
    if (bytes.length === 0) {
      throw new AppError('bad_request', 'The file is empty', {
        fields: [{ path: 'file', message: 'The file is empty' }],
      });
    }
    return { bytes, fileName: part.filename };
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      const mb = Math.round(opts.maxBytes / (1024 * 1024));
      const message = `The file is too large (${mb} MB at most)${opts.hint ? `: ${opts.hint}` : ''}`;
      throw new AppError('payload_too_large', message, { fields: [{ path: 'file', message }] });
    }
    throw err;
  }
}

/** What the request says it carries (its Content-Length, at most a file past the limit); 0 when unsaid. */
function declaredSize(request: FastifyRequest, maxBytes: number): number {
  const declared = Number(request.headers['content-length']);
  return Number.isSafeInteger(declared) && declared > 0 ? Math.min(declared, maxBytes + 64 * 1024) : 0;
}

/**
 * The part's bytes in one buffer. Joining a 61 MB upload's chunks at the end (the multipart plugin's
 * `toBuffer`) held the event loop 44 ms in one copy (issue 44.1): once an eighth of what the request
 * declared has arrived, one buffer of the declared size is made and every chunk is copied into it as
 * it arrives. Until then the chunks are only kept, so a client that declares a large body and sends
 * little makes the server hold at most eight times what it sent (and never past the route's limit).
 * Past the limit the plugin cuts the stream and marks it truncated: the same error `toBuffer` throws.
 */
export async function collectBytes(
  file: AsyncIterable<Buffer> & { truncated?: boolean },
  declared: number,
): Promise<Buffer> {
  let chunks: Buffer[] = [];
  let out: Buffer | undefined;
  let length = 0;
  for await (const chunk of file) {
    if (!out) {
      chunks.push(chunk);
      length += chunk.length;
      if (declared > 0 && length * 8 >= declared) {
        out = Buffer.allocUnsafe(Math.max(declared, length));
        Buffer.concat(chunks, length).copy(out);
        chunks = [];
      }
      continue;
    }
    if (length + chunk.length > out.length) {
      // More than declared (a body's length is the declared one, so only a caller's own stream).
      const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, length + chunk.length));
      out.copy(bigger, 0, 0, length);
      out = bigger;
    }
    chunk.copy(out, length);
    length += chunk.length;
  }
  if (file.truncated) {
    throw Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
  }
  return out ? out.subarray(0, length) : Buffer.concat(chunks, length);
}

/**
 * The `file` part as a pool thread receives it (`readUploadedFile`'s checks), to be moved to the
 * thread rather than copied: `pool.run(task, [upload.bytes.buffer])`. Copied here and again by the
 * structured clone, a 64 MB extract (the indirect estimator's limit) cost the event loop two copies
 * of 64 MB (issue 44.1). Bytes that may share Node's small-buffer pool are copied (a few KB).
 */
export async function readUploadForThread(
  request: FastifyRequest,
  opts: { maxBytes: number; choose: string; hint?: string },
): Promise<UploadedBytes> {
  const { bytes, fileName } = await readUploadedFile(request, opts);
  const own =
    bytes.buffer.byteLength > Buffer.poolSize
      ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)
      : new Uint8Array(bytes);
  return { bytes: own, fileName };
}
