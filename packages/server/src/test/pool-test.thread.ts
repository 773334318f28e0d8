import { AppError } from '../lib/app-error.js';
import { threadId } from 'node:worker_threads';
import { answerTasks } from '../lib/worker-task.js';

/** A WorkerPool thread for lib/worker-pool.test.ts: answers, refuses, spins, fills its heap or sums bytes. */
answerTasks((task: 'echo' | 'refuse' | 'spin' | 'eat' | 'thread' | { sum: Uint8Array }) => {
  if (typeof task === 'object') return `sum ${task.sum.reduce((s, b) => s + b, 0)} of ${task.sum.length}`;
  if (task === 'thread') return `thread ${threadId}`;
  if (task === 'refuse') throw new AppError('bad_request', 'refused on purpose');
  if (task === 'spin') for (;;);
  if (task === 'eat') {
    const hoard: number[][] = [];
    for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i * 1.5));
  }
  return `${task} from a thread`;
});
