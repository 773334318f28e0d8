import zlib from 'node:zlib';
import { compressKept, type ContentEncoding } from './kept-compression.js';
import { chainPieces } from './stitched-gzip.js';
import { answerTasks } from './worker-task.js';

export type CompressTask =
  | { plain: string | Uint8Array; encoding: ContentEncoding }
  | { gzipped: Uint8Array; encoding: ContentEncoding }
  | { joined: Uint8Array; lengths: number[]; encoding: ContentEncoding }
  | { texts: Uint8Array; lengths: number[]; linked: boolean[] };

/**
 * The compression upgrades' thread (decision 104): a kept answer's copy made again with the kept
 * settings, at background priority (answerTasks lowers it), so the event loop and the first asks'
 * quick copies get the cores first. A batch (`joined`) is the records pool's gzip copies (decision
 * 106): hundreds of records of a few KB in one trip. `texts` are page items to chain, and a page kept
 * as its stitched gzip copy comes `gzipped` (decision 107).
 */
answerTasks((task: CompressTask) => {
  if ('texts' in task) return chainPieces(task.texts, task.lengths, task.linked);
  if ('gzipped' in task) return compressKept(zlib.gunzipSync(task.gzipped), task.encoding);
  if ('joined' in task) return compressEach(task.joined, task.lengths, task.encoding);
  return compressKept(task.plain, task.encoding);
});

/** Each of the plains `joined` one after the other (`lengths`) compressed, answered joined too. */
function compressEach(
  joined: Uint8Array,
  lengths: readonly number[],
  encoding: ContentEncoding,
): { bytes: Buffer; lengths: number[] } {
  let at = 0;
  const copies = lengths.map((length) => {
    const copy = compressKept(joined.subarray(at, at + length), encoding);
    at += length;
    return copy;
  });
  return { bytes: Buffer.concat(copies), lengths: copies.map((copy) => copy.length) };
}
