import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { StatsResult } from '@bvdb/contract';
import { AppError, type AppErrorCode, type FieldMessage } from '../../../lib/app-error.js';
import { spawnWorker } from '../../../lib/spawn-worker.js';

export interface StatsTask {
  body: unknown;
  seed: number | undefined;
}
export type StatsTaskAnswer =
  | { ok: true; result: StatsResult }
  | { ok: false; code: AppErrorCode | null; message: string; fields?: FieldMessage[] | undefined };

interface Pending {
  task: StatsTask;
  resolve: (r: StatsResult) => void;
  reject: (e: Error) => void;
}

export interface StatsPoolOptions {
  /** Threads (one request each at a time). */
  size: number;
  /** Requests that may wait for a thread; beyond, 503 with Retry-After. */
  maxQueue: number;
  /** A request running longer ends its thread (a new one replaces it) and answers 503. */
  timeoutMs: number;
}

export const defaultStatsPoolOptions = (): StatsPoolOptions => ({
  size: Math.min(2, Math.max(1, availableParallelism() - 1)),
  maxQueue: 16,
  timeoutMs: 20_000,
});

const spawn = () => spawnWorker(import.meta.url, './stats.worker.js');

/**
 * A small bounded pool of worker threads for the statistics endpoint, so a large CSV or a bootstrap
 * never holds the event loop (health checks, other requests). Threads start on first use and stay;
 * they do not keep the process alive.
 */
export class StatsPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, { job: Pending; timer: NodeJS.Timeout }>();
  private readonly queue: Pending[] = [];
  private count = 0;
  private closed = false;

  constructor(private readonly opts: StatsPoolOptions = defaultStatsPoolOptions()) {}

  run(task: StatsTask): Promise<StatsResult> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The server is shutting down'));
    if (this.queue.length >= this.opts.maxQueue) {
      return Promise.reject(
        new AppError('unavailable', 'The statistics service is busy; try again in a few seconds', {
          headers: { 'Retry-After': '2' },
        }),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.next();
    });
  }

  /** How many requests are running and waiting (for tests and the status card). */
  get load(): { running: number; waiting: number } {
    return { running: this.busy.size, waiting: this.queue.length };
  }

  private next(): void {
    while (this.queue.length > 0) {
      let worker = this.idle.pop();
      if (!worker && this.count < this.opts.size) worker = this.start();
      if (!worker) return;
      const job = this.queue.shift()!;
      if (!this.send(worker, job)) continue;
      const timer = setTimeout(() => {
        this.fail(worker, new AppError('unavailable', 'The calculation took too long; try fewer rows'));
        void worker.terminate();
      }, this.opts.timeoutMs);
      this.busy.set(worker, { job, timer });
    }
  }

  /**
   * Hands a task to an idle thread. A task that cannot be sent (structured clone refuses it: too
   * deep, not cloneable) fails alone with a 400 and the thread goes back to the idle list: it is
   * never marked busy, so nothing is left for a timer to trip over (issue 25).
   */
  private send(worker: Worker, job: Pending): boolean {
    try {
      worker.postMessage(job.task);
      return true;
    } catch (err) {
      this.idle.push(worker);
      job.reject(
        new AppError(
          'bad_request',
          `The request body cannot be calculated on: ${err instanceof Error ? err.message : String(err)}`,
        ),
      );
      return false;
    }
  }

  private start(): Worker {
    const worker = spawn();
    this.count++;
    worker.on('message', (answer: StatsTaskAnswer) => {
      const running = this.busy.get(worker);
      if (!running) return;
      clearTimeout(running.timer);
      this.busy.delete(worker);
      if (answer.ok) running.job.resolve(answer.result);
      else if (answer.code) {
        running.job.reject(
          new AppError(answer.code, answer.message, answer.fields ? { fields: answer.fields } : {}),
        );
      } else running.job.reject(new Error(answer.message));
      this.idle.push(worker);
      this.next();
    });
    worker.on('error', (err) => this.fail(worker, err));
    worker.on('exit', () => this.fail(worker, new Error('statistics worker stopped')));
    // Unref'd after the 'message' listener: on Node 20 a listener added to an unref'd worker refs its
    // port again, and the process then stays alive after its work is done (decision 074).
    worker.unref();
    return worker;
  }

  /** A thread that failed or ended: its request fails, the thread is forgotten, the queue goes on. */
  private fail(worker: Worker, err: Error): void {
    const running = this.busy.get(worker);
    if (running) {
      clearTimeout(running.timer);
      this.busy.delete(worker);
      running.job.reject(err);
    }
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
    if (running || i >= 0) this.count--;
    if (!this.closed) this.next();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.reject(new AppError('unavailable', 'The server is shutting down'));
    const all = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }
}
