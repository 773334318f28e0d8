import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressKept } from './kept-compression.js';
import { encodedBody, encodeQuickly, ResponseCache } from './response-cache.js';

const record = JSON.stringify({ data: Array.from({ length: 60 }, (_, k) => ({ k, name: `item ${k}` })) });

// A kept copy lives as long as its answer: it must hold its own bytes, not zlib's 16 KB output chunk
// (20,200 records' two answers held ~660 MB for ~58 MB of copies at 100×).
describe('kept compressed copies', () => {
  it('hold memory of their own size, in both encodings, and unpack to the answer', () => {
    for (const encoding of ['gzip', 'br'] as const) {
      const copy = compressKept(record, encoding);
      expect(copy.byteLength).toBeLessThan(4096);
      expect(copy.buffer.byteLength).toBe(copy.byteLength);
      const back = encoding === 'gzip' ? zlib.gunzipSync(copy) : zlib.brotliDecompressSync(copy);
      expect(back.toString()).toBe(record);
    }
  });

  it('hold their own size when made for a kept answer, quick or with the kept settings', async () => {
    const cache = new ResponseCache(10, 10);
    const middling = record.repeat(4); // 8 KB or more: a quick first copy (decision 076)
    const { entry } = await cache.getOrBuild('answer', ['datasets'], async () => ({ body: middling }));
    encodeQuickly(entry, 'br');
    const gzip = encodedBody(entry, 'gzip');
    for (const copy of [entry.encoded.br!, gzip]) expect(copy.buffer.byteLength).toBe(copy.byteLength);
    expect(zlib.brotliDecompressSync(entry.encoded.br!).toString()).toBe(middling);
  });
});
