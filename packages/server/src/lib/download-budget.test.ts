import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DOWNLOAD_SLICE_BYTES, DownloadBudget } from './download-budget.js';

const MB = 1024 * 1024;

async function drain(body: Buffer | Readable): Promise<{ bytes: Buffer; ms: number }> {
  const t = Date.now();
  if (Buffer.isBuffer(body)) return { bytes: body, ms: 0 };
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(chunk as Buffer);
  return { bytes: Buffer.concat(parts), ms: Date.now() - t };
}

const source = (chunks: number, size: number) =>
  Readable.from(Array.from({ length: chunks }, (_, i) => Buffer.alloc(size, i % 256)));

describe('the shared download budget', () => {
  it('sends every byte of a stream in order, no faster than the rate after the burst', async () => {
    // 4 MB at 1 MB/s with one second of burst: the first 1 MB at once, the other 3 MB over ~3 s.
    const { bytes, ms } = await drain(new DownloadBudget(MB).pace(source(64, 64 * 1024)));
    expect(bytes.length).toBe(4 * MB);
    expect(bytes[0]).toBe(0);
    expect(bytes.at(-1)).toBe(63);
    expect(ms).toBeGreaterThanOrEqual(2_800);
    expect(ms).toBeLessThan(6_000);
  });

  it('bounds downloads together, not each one: two at once take twice as long as one', async () => {
    // 2 MB each at 4 MB/s with a tenth of a second of burst (0.4 MB): alone, (2 - 0.4) / 4 = 0.4 s;
    // two together share the 4 MB/s, so both end after (4 - 0.4) / 4 = 0.9 s.
    const one = await drain(new DownloadBudget(4 * MB, 0.1).pace(source(32, 64 * 1024)));
    const shared = new DownloadBudget(4 * MB, 0.1);
    const both = await Promise.all([
      drain(shared.pace(source(32, 64 * 1024))),
      drain(shared.pace(source(32, 64 * 1024))),
    ]);
    expect(one.ms).toBeGreaterThanOrEqual(350);
    expect(one.ms).toBeLessThan(750);
    for (const { bytes, ms } of both) {
      expect(bytes.length).toBe(2 * MB);
      expect(ms).toBeGreaterThanOrEqual(850);
      expect(ms).toBeLessThan(2_000);
    }
    // Each got its turn slice by slice: neither had to wait for the other to finish.
    expect(Math.abs(both[0].ms - both[1].ms)).toBeLessThan(300);
  });

  it('sends a body in memory whole when it fits the budget now, in paced slices when it does not', async () => {
    const budget = new DownloadBudget(MB, 0.25);
    const small = Buffer.alloc(10_000, 7);
    expect(budget.body(small)).toBe(small);
    // 5 slices (320 KB) at 1 MB/s after a 256 KB burst: the last ~70 KB wait ~70 ms.
    const big = Buffer.from(Array.from({ length: 5 * DOWNLOAD_SLICE_BYTES }, (_, i) => i % 251));
    const paced = budget.body(big);
    expect(Buffer.isBuffer(paced)).toBe(false);
    const { bytes, ms } = await drain(paced);
    expect(bytes.equals(big)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(50);
    expect(ms).toBeLessThan(1_000);
    // The budget is spent: even a small body now waits for its turn, and still arrives whole.
    const late = budget.body(small);
    expect(Buffer.isBuffer(late)).toBe(false);
    expect((await drain(late)).bytes.equals(small)).toBe(true);
  });

  it('leaves everything unpaced at a budget of 0', () => {
    const none = new DownloadBudget(0);
    const plain = source(2, 10);
    expect(none.pace(plain)).toBe(plain);
    const bytes = Buffer.alloc(10 * DOWNLOAD_SLICE_BYTES);
    expect(none.body(bytes)).toBe(bytes);
  });

  it('ends the source when the download is abandoned', async () => {
    const src = source(64, 64 * 1024);
    const paced = new DownloadBudget(MB, 0.1).pace(src);
    paced.destroy();
    await new Promise((r) => setImmediate(r));
    expect(src.destroyed).toBe(true);
  });

  it('takes a small body now only while the burst lasts, and reserves nothing when it says no', () => {
    // 100 KB/s with one second of burst: ten 10 KB bodies go at once, the eleventh waits.
    const budget = new DownloadBudget(100_000, 1);
    for (let i = 0; i < 10; i++) expect(budget.takeNow(10_000)).toBe(true);
    expect(budget.takeNow(10_000)).toBe(false);
    // The refusal reserved nothing: a zero-byte body still fits, and `reserve` sees no extra debt.
    expect(budget.takeNow(0)).toBe(true);
    expect(budget.reserve(0)).toBeLessThanOrEqual(1);
    expect(budget.takeNow(DOWNLOAD_SLICE_BYTES + 1)).toBe(false);
    expect(new DownloadBudget(0).takeNow(10 * MB)).toBe(true);
  });
});
