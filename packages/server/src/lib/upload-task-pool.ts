import { WorkerPool } from './worker-pool.js';

// The pool of threads an upload's whole work runs on (reading the file, the engine, the presenter),
// made once for the modules that take a file to compute on (decision 100): the estimations and the
// indirect estimate. The thread's file, limits and words are the caller's.

export interface UploadTaskPoolOptions {
  /** The thread's module beside `from` (an `import.meta.url`), named as built: `./x.thread.js`. */
  from: string;
  file: string;
  timeoutMs: number;
  /** The thread's heap: a task past it ends its thread and answers 413. */
  heapMb: number;
  /** What runs, as a sentence starts: "The estimation". */
  work: string;
  /** What to send instead when it runs too long: "send fewer rows or fewer bootstrap resamples". */
  tooLongHint: string;
  /** What needs too much memory, as a sentence starts: "The file". */
  tooLarge: string;
  busy: string;
}

/**
 * A pool whose task runs too long answers 422 ("… took too long (over N s): hint."), and one that
 * needs too much memory 413 ("… needs too much memory: send fewer rows."); a full queue 503.
 */
export function createUploadTaskPool<T, R>(o: UploadTaskPoolOptions): WorkerPool<T, R> {
  return new WorkerPool<T, R>({
    from: o.from,
    file: o.file,
    timeoutMs: o.timeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: o.heapMb },
    tooLong: {
      code: 'unprocessable',
      message: `${o.work} took too long (over ${Math.round(o.timeoutMs / 1000)} s): ${o.tooLongHint}.`,
    },
    tooLarge: { code: 'payload_too_large', message: `${o.tooLarge} needs too much memory: send fewer rows.` },
    busy: o.busy,
  });
}
