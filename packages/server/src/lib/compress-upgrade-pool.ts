import type { CompressTask } from './compress-upgrade.thread.js';
import { WorkerPool } from './worker-pool.js';
import type { ContentEncoding } from './kept-compression.js';

/**
 * One thread at background priority (nice 10, lib/thread-priority.ts) that makes the kept copies of
 * answers first sent with a quick one (decision 104), and the records pool's gzip copies (decision
 * 106). In Node's thread pool, at the event loop's priority, brotli quality 6 of a page of 100
 * (~10 ms) took the cores from a pass of first asks on a busy machine; here it runs in what they leave.
 */
const pool = new WorkerPool<CompressTask, Uint8Array | Uint8Array[]>({
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

/** `plain` compressed with the kept settings in the background thread. */
export async function compressKeptInBackground(
  plain: string | Buffer,
  encoding: ContentEncoding,
): Promise<Buffer> {
  return asBuffer((await pool.run({ plain, encoding })) as Uint8Array);
}

/** Each of `plains` compressed with the kept settings in the background thread, in one trip. */
export async function compressManyInBackground(
  plains: (string | Buffer)[],
  encoding: ContentEncoding,
): Promise<Buffer[]> {
  return ((await pool.run({ plains, encoding })) as Uint8Array[]).map(asBuffer);
}
