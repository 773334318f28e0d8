import { parentPort } from 'node:worker_threads';
import { AppError, type AppErrorCode, type FieldMessage } from './app-error.js';
import { lowerThisThreadPriority } from './thread-priority.js';

/** What a pool thread answers: the result, or an AppError's parts (or a bare message for a bug). */
export type TaskAnswer<R> =
  | { ok: true; result: R }
  | { ok: false; code: AppErrorCode | null; message: string; fields?: FieldMessage[] | undefined };

/**
 * The thread side of a `WorkerPool`: runs `handle` on each task, one at a time, and answers.
 * An AppError crosses as its code, message and fields (the pool throws it again on the main thread).
 */
export function answerTasks<T, R>(handle: (task: T) => R | Promise<R>): void {
  lowerThisThreadPriority();
  parentPort!.on('message', (task: T) => {
    void (async () => {
      let answer: TaskAnswer<R>;
      try {
        answer = { ok: true, result: await handle(task) };
      } catch (err) {
        answer =
          err instanceof AppError
            ? { ok: false, code: err.code, message: err.message, fields: err.extra.fields }
            : { ok: false, code: null, message: err instanceof Error ? err.message : String(err) };
      }
      parentPort!.postMessage(answer);
    })();
  });
}
