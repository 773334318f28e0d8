import { parentPort } from 'node:worker_threads';
import { AppError } from '../../../lib/app-error.js';
import { lowerThisThreadPriority } from '../../../lib/thread-priority.js';
import { parseStatsRows } from './stats-rows.js';
import { runMetacalculation } from './stats.service.js';
import type { StatsTask, StatsTaskAnswer } from './stats-pool.js';

/** A statistics-pool thread: the CPU-heavy part of the endpoint (CSV/row parsing, the bootstrap). */
lowerThisThreadPriority();
parentPort!.on('message', (task: StatsTask) => {
  let answer: StatsTaskAnswer;
  try {
    answer = { ok: true, result: runMetacalculation(parseStatsRows(task.body), task.seed) };
  } catch (err) {
    answer =
      err instanceof AppError
        ? { ok: false, code: err.code, message: err.message, fields: err.extra.fields }
        : { ok: false, code: null, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(answer);
});
