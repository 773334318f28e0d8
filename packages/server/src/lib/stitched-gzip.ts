import zlib from 'node:zlib';

/**
 * A gzip answer put together from pieces of raw deflate made beforehand (decision 107), the way pigz
 * joins the pieces it compresses in parallel: each piece ends on a byte boundary with a sync flush and
 * none is the last block, so they follow one another into one deflate stream (RFC 1951). A piece may
 * be made with the bytes just before it as its dictionary: its back-references then reach into them,
 * which holds wherever those bytes do come right before it. The whole is one ordinary gzip member
 * (RFC 1952): a header, the stream closed by an empty last block, the CRC-32 and the length.
 */

/** ID1 ID2, deflate, no flags, no time, no extra flags, OS unknown (RFC 1952 §2.3). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** A last block of fixed codes holding only its end code: 1 (last), 01 (fixed), 0000000 (end). */
const LAST_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);
/** A stored block holds at most this many bytes (its LEN is 16 bits). */
const STORED_MAX = 0xffff;

/**
 * `text` as raw deflate that continues a stream: after a sync flush (byte-aligned, not last), made
 * with `before` as the dictionary when given (the bytes that will come right before it).
 */
export function deflatePiece(text: Uint8Array, before?: Uint8Array): Buffer {
  return zlib.deflateRawSync(text, {
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
    ...(before ? { dictionary: before } : {}),
  });
}

/**
 * `bytes` as stored (uncompressed) blocks, none the last: each block's five-byte header (BFINAL 0,
 * BTYPE 00, LEN, NLEN) and its bytes, as parts to join (no copy of `bytes` here).
 */
export function storedPiece(bytes: Uint8Array): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at === 0 || at < bytes.length; at += STORED_MAX) {
    const chunk = bytes.subarray(at, at + STORED_MAX);
    const header = Buffer.allocUnsafe(5);
    header[0] = 0;
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    parts.push(header, chunk);
  }
  return parts;
}

/**
 * The gzip member whose deflate stream is `pieces` in order: they unpack to bytes of CRC-32 `crc`
 * and `length` (RFC 1952's trailer).
 */
export function gzipOfPieces(pieces: readonly Uint8Array[], crc: number, length: number): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, ...pieces, LAST_EMPTY_BLOCK, trailer]);
}

const COMMA = Buffer.from(',');

/**
 * Items of a page that follow one another (the thread's side of lib/fragment-chains.ts): `texts`
 * holds each item's JSON one after the other (`lengths`); for each item `linked` to the one before
 * it, the piece for `,` and its JSON made with the item before as the dictionary. The pieces are
 * answered one after the other (`bytes`, with their `lengths`), in one buffer: one copy to post back.
 */
export function chainPieces(
  texts: Uint8Array,
  lengths: readonly number[],
  linked: readonly boolean[],
): { bytes: Buffer; lengths: number[] } {
  const pieces: Buffer[] = [];
  let before: Uint8Array | undefined;
  let at = 0;
  lengths.forEach((length, k) => {
    const text = texts.subarray(at, at + length);
    if (linked[k]) {
      if (!before) throw new Error('The first item has no item before it to follow');
      pieces.push(deflatePiece(Buffer.concat([COMMA, text]), before));
    }
    before = text;
    at += length;
  });
  return { bytes: Buffer.concat(pieces), lengths: pieces.map((piece) => piece.length) };
}
