import zlib from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

/** The kept copies' settings: brotli quality 6, gzip level 6. */
export const KEPT_BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } };
export const KEPT_GZIP = { level: 6 };

/**
 * `out` in memory of its own size. zlib's synchronous calls answer a view into their 16 KB output
 * chunk: a kept 1.2 KB record held 16 KB (20,200 records' two answers ~650 MB instead of ~50), and
 * a view posted from a thread carries its whole chunk with it. Kept copies live long: copied once.
 */
export function ownSize(out: Buffer): Buffer {
  if (out.byteLength === out.buffer.byteLength) return out;
  const own = Buffer.allocUnsafeSlow(out.byteLength);
  out.copy(own);
  return own;
}

/** `plain` compressed with the kept settings, in the calling thread, in memory of its own size. */
export function compressKept(plain: string | Uint8Array, encoding: ContentEncoding): Buffer {
  return ownSize(
    encoding === 'br' ? zlib.brotliCompressSync(plain, KEPT_BROTLI) : zlib.gzipSync(plain, KEPT_GZIP),
  );
}
