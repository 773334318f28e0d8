import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chainPieces, deflatePiece, gzipOfPieces, storedPiece } from './stitched-gzip.js';

// Decision 107: a gzip answer joined from pieces made beforehand must be one ordinary gzip member
// that any decoder unpacks to the exact bytes, however the pieces were made.

const item = (i: number) =>
  Buffer.from(
    JSON.stringify({
      id: i,
      unique_identifier: `DEMO-${String(i).padStart(3, '0')}`,
      analyte: { id: i % 7, display_name: ['Sodium', 'Creatinine', 'Glucose'][i % 3] },
      estimates_of_cvi: (i * 1.37) % 20,
      comment: 'x'.repeat(i % 50),
    }),
  );
const crcOf = (b: Buffer) => zlib.crc32(b);

describe('stitched gzip', () => {
  it('items chained in a thread and joined with stored pieces unpack to the page', () => {
    const items = Array.from({ length: 30 }, (_, i) => item(i));
    const { bytes, lengths } = chainPieces(
      Buffer.concat(items),
      items.map((b) => b.length),
      items.map((_, k) => k > 0),
    );
    expect(lengths).toHaveLength(29);
    const pieces: Uint8Array[] = [];
    const head = Buffer.from('{"meta":{"total":30},"data":[');
    const tail = Buffer.from(']}');
    pieces.push(...storedPiece(head), ...storedPiece(items[0]!));
    let at = 0;
    for (const length of lengths) {
      pieces.push(bytes.subarray(at, at + length));
      at += length;
    }
    pieces.push(...storedPiece(tail));
    const plain = Buffer.concat([head, Buffer.from(items.map(String).join(',')), tail]);
    const gzip = gzipOfPieces(pieces, crcOf(plain), plain.length);
    expect(zlib.gunzipSync(gzip).equals(plain)).toBe(true);
    // Chained pieces are small: each item is mostly what the one before it said.
    expect(bytes.length).toBeLessThan(Buffer.concat(items.slice(1)).length / 3);
  });

  it('a piece made after one item does not unpack after another', () => {
    const [a, b, c] = [item(1), item(2), item(3)];
    const afterA = deflatePiece(Buffer.concat([Buffer.from(','), c]), a);
    const meant = Buffer.concat([a, Buffer.from(','), b, Buffer.from(','), c]);
    const pieces = [...storedPiece(a), ...storedPiece(Buffer.from(',')), ...storedPiece(b), afterA];
    // Its back-references reach into the bytes before it: after `b`, they read `b`'s bytes, so the
    // result is not the page (or not even gzip with that checksum): hence `followsIn`'s check.
    const unpacked = (() => {
      try {
        return zlib.gunzipSync(gzipOfPieces(pieces, crcOf(meant), meant.length));
      } catch (err) {
        return err as Error;
      }
    })();
    expect(unpacked instanceof Buffer && unpacked.equals(meant)).toBe(false);
    // After `a`, where it was made for, it unpacks to `a,c`.
    const meantAfterA = Buffer.concat([a, Buffer.from(','), c]);
    const good = gzipOfPieces([...storedPiece(a), afterA], crcOf(meantAfterA), meantAfterA.length);
    expect(zlib.gunzipSync(good).equals(meantAfterA)).toBe(true);
  });

  it('stored pieces split past 65,535 bytes, and an empty one is a valid block', () => {
    const big = Buffer.from(createHash('sha512').update('x').digest('hex').repeat(2100)); // 268,800 bytes
    const pieces = [...storedPiece(Buffer.alloc(0)), ...storedPiece(big)];
    expect(pieces.length).toBe(2 + 2 * Math.ceil(big.length / 65_535));
    const gzip = gzipOfPieces(pieces, crcOf(big), big.length);
    expect(zlib.gunzipSync(gzip).equals(big)).toBe(true);
  });

  it('a wrong length or checksum is refused by the decoder, as gzip requires', () => {
    const plain = item(5);
    const pieces = storedPiece(plain);
    expect(() => zlib.gunzipSync(gzipOfPieces(pieces, crcOf(plain) ^ 1, plain.length))).toThrow();
    expect(() => zlib.gunzipSync(gzipOfPieces(pieces, crcOf(plain), plain.length + 1))).toThrow();
  });

  it('the first item cannot be chained: it has nothing before it', () => {
    expect(() => chainPieces(item(1), [item(1).length], [true])).toThrow(/no item before it/);
  });
});
