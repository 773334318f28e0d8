import { compressKept, type ContentEncoding } from './kept-compression.js';
import { answerTasks } from './worker-task.js';

/**
 * The compression upgrades' thread (decision 104): a kept answer's copy made again with the kept
 * settings, at background priority (answerTasks lowers it), so the event loop and the first asks'
 * quick copies get the cores first.
 */
answerTasks(({ plain, encoding }: { plain: string | Uint8Array; encoding: ContentEncoding }) =>
  compressKept(plain, encoding),
);
