import zlib from 'node:zlib';
import { contentEtag } from './content-etag.js';
import { compressKept, type ContentEncoding } from './kept-compression.js';
import { chainPieces } from './stitched-gzip.js';
import { answerTasks } from './worker-task.js';

export type CompressTask =
  | { plain: string | Uint8Array; encoding: ContentEncoding }
  | { gzipped: Uint8Array; encoding: ContentEncoding }
  | { joined: Uint8Array; lengths: number[]; encoding: ContentEncoding }
  | { texts: Uint8Array; lengths: number[]; linked: boolean[] }
  | { answers: Uint8Array; lengths: number[] };

/**
 * The compression upgrades' thread (decision 104): a kept answer's copy made again with the kept
 * settings, at background priority (answerTasks lowers it), so the event loop and the first asks'
 * quick copies get the cores first. A batch (`joined`) is the records pool's gzip copies (decision
 * 106): hundreds of records of a few KB in one trip. `texts` are page items to chain, and a page kept
 * as its stitched gzip copy comes `gzipped` (decision 107). `answers` are whole public records made
 * ahead by the fill: each one's gzip copy and ETag (decision 113).
 */
answerTasks((task: CompressTask) => {
  if ('texts' in task) return chainPieces(task.texts, task.lengths, task.linked);
  if ('answers' in task) return prepareEach(task.answers, task.lengths);
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

/** Each answer `joined` one after the other (`lengths`): its gzip copy (answered joined) and its ETag. */
function prepareEach(
  joined: Uint8Array,
  lengths: readonly number[],
): { bytes: Buffer; lengths: number[]; etags: string[] } {
  const etags: string[] = [];
  let at = 0;
  for (const length of lengths) {
    etags.push(contentEtag(joined.subarray(at, at + length)));
    at += length;
  }
  return { ...compressEach(joined, lengths, 'gzip'), etags };
}
