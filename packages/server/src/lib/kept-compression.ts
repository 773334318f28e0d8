import zlib from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

/** The kept copies' settings: brotli quality 6, gzip level 6. */
export const KEPT_BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } };
export const KEPT_GZIP = { level: 6 };

/** `plain` compressed with the kept settings, in the calling thread. */
export function compressKept(plain: string | Uint8Array, encoding: ContentEncoding): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(plain, KEPT_BROTLI) : zlib.gzipSync(plain, KEPT_GZIP);
}
