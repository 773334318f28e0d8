import { compressKept, type ContentEncoding } from './kept-compression.js';
import { answerTasks } from './worker-task.js';

export type CompressTask =
  | { plain: string | Uint8Array; encoding: ContentEncoding }
  | { plains: (string | Uint8Array)[]; encoding: ContentEncoding };

/**
 * The compression upgrades' thread (decision 104): a kept answer's copy made again with the kept
 * settings, at background priority (answerTasks lowers it), so the event loop and the first asks'
 * quick copies get the cores first. A batch (`plains`) is the records pool's gzip copies (decision
 * 106): hundreds of records of a few KB in one trip.
 */
answerTasks((task: CompressTask) =>
  'plains' in task
    ? task.plains.map((plain) => compressKept(plain, task.encoding))
    : compressKept(task.plain, task.encoding),
);
