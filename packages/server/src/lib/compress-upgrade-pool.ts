import type { CompressTask } from './compress-upgrade.thread.js';
import { WorkerPool } from './worker-pool.js';
import type { ContentEncoding } from './kept-compression.js';

/**
 * One thread at background priority (nice 10, lib/thread-priority.ts) that makes the kept copies of
 * answers first sent with a quick one (decision 104), and the records pool's gzip copies (decision
 * 106). In Node's thread pool, at the event loop's priority, brotli quality 6 of a page of 100
 * (~10 ms) took the cores from a pass of first asks on a busy machine; here it runs in what they leave.
 * It also makes the page items' pieces that first-time pages are stitched from (decision 107).
 */
const pool = new WorkerPool<
  CompressTask,
  Uint8Array | { bytes: Uint8Array; lengths: number[]; etags?: string[] }
>({
  from: import.meta.url,
  file: './compress-upgrade.thread.js',
  size: 1,
  // One upgrade and one batch of records at a time (lib/response-cache.ts); a few more may wait.
  maxQueue: 64,
  timeoutMs: 60_000,
  tooLong: { code: 'unavailable', message: 'A compression took too long' },
  tooLarge: { code: 'unavailable', message: 'A compression needed too much memory' },
  busy: 'The compression thread is busy',
});

const asBuffer = (out: Uint8Array): Buffer => Buffer.from(out.buffer, out.byteOffset, out.byteLength);

/**
 * `plain` compressed with the kept settings in the background thread; given as its gzip copy
 * (`gzipped`), unpacked there first.
 */
export async function compressKeptInBackground(
  plain: string | Buffer | { gzipped: Buffer },
  encoding: ContentEncoding,
): Promise<Buffer> {
  const task = typeof plain === 'object' && 'gzipped' in plain ? { ...plain, encoding } : { plain, encoding };
  return asBuffer((await pool.run(task)) as Uint8Array);
}

/**
 * Each of `plains` compressed with the kept settings in the background thread, in one trip: sent
 * joined and answered joined, one copy each way (posting 256 records one by one cost the loop ~2 ms
 * a batch at 100×, decision 107). Each copy comes back in memory of its own size.
 */
export async function compressManyInBackground(
  plains: (string | Buffer)[],
  encoding: ContentEncoding,
): Promise<Buffer[]> {
  const parts = plains.map((plain) => (typeof plain === 'string' ? Buffer.from(plain) : plain));
  const out = (await pool.run({
    joined: Buffer.concat(parts),
    lengths: parts.map((part) => part.length),
    encoding,
  })) as { bytes: Uint8Array; lengths: number[] };
  return ownCopies(out);
}

/** A whole answer made ahead (decision 113): its gzip copy with the kept settings, length and ETag. */
export interface PreparedAnswer {
  gzip: Buffer;
  /** The answer's length unpacked. */
  length: number;
  etag: string;
}

/**
 * Each of `answers` (whole answers, e.g. public records) as its gzip copy with the kept settings and
 * its ETag (lib/content-etag.ts), made in the background thread in one trip.
 */
export async function prepareInBackground(answers: Buffer[]): Promise<PreparedAnswer[]> {
  const out = (await pool.run({
    answers: Buffer.concat(answers),
    lengths: answers.map((answer) => answer.length),
  })) as { bytes: Uint8Array; lengths: number[]; etags: string[] };
  return ownCopies(out).map((gzip, i) => ({ gzip, length: answers[i]!.length, etag: out.etags[i]! }));
}

/** The copies answered joined, each in memory of its own size (lib/kept-compression.ts `ownSize`). */
function ownCopies(out: { bytes: Uint8Array; lengths: number[] }): Buffer[] {
  const bytes = asBuffer(out.bytes);
  let at = 0;
  return out.lengths.map((length) => {
    const copy = Buffer.allocUnsafeSlow(length);
    bytes.copy(copy, 0, at, at + length);
    at += length;
    return copy;
  });
}

/**
 * The pieces of page items that follow the item before them (lib/stitched-gzip.ts `chainPieces`):
 * `texts` one after the other, each `linked` one answered as its piece, in one trip.
 */
export async function chainInBackground(
  texts: Buffer,
  lengths: number[],
  linked: boolean[],
): Promise<{ bytes: Buffer; lengths: number[] }> {
  const out = (await pool.run({ texts, lengths, linked })) as { bytes: Uint8Array; lengths: number[] };
  return { bytes: asBuffer(out.bytes), lengths: out.lengths };
}
