import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { paced } from './paced-stream.js';

async function drain(stream: Readable): Promise<{ bytes: Buffer; ms: number }> {
  const t = Date.now();
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return { bytes: Buffer.concat(parts), ms: Date.now() - t };
}

const source = (chunks: number, size: number) =>
  Readable.from(Array.from({ length: chunks }, (_, i) => Buffer.alloc(size, i % 256)));

describe('paced streams', () => {
  it('sends every byte in order, no faster than the rate after the first second', async () => {
    // 4 MB at 1 MB/s: the first 1 MB at once, the other 3 MB over ~3 s.
    const { bytes, ms } = await drain(paced(source(64, 64 * 1024), 1024 * 1024));
    expect(bytes.length).toBe(64 * 64 * 1024);
    expect(bytes[0]).toBe(0);
    expect(bytes.at(-1)).toBe(63);
    expect(ms).toBeGreaterThanOrEqual(2_800);
    expect(ms).toBeLessThan(6_000);
  });

  it('leaves a stream within one second of the rate, or a rate of 0, unpaced', async () => {
    expect((await drain(paced(source(8, 64 * 1024), 1024 * 1024))).ms).toBeLessThan(500);
    const plain = source(2, 10);
    expect(paced(plain, 0)).toBe(plain);
  });
});
