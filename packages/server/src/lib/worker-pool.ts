import { availableParallelism } from 'node:os';
import type { ResourceLimits, TransferListItem, Worker } from 'node:worker_threads';
import { AppError, type AppErrorCode } from './app-error.js';
import { spawnWorker } from './spawn-worker.js';
import type { TaskAnswer } from './worker-task.js';

export interface WorkerPoolOptions {
  /** The thread's module beside `from` (an `import.meta.url`), named as built: `./x.thread.js`. */
  from: string;
  file: string;
  /** Threads (one task each at a time); by default one core is left to the event loop. */
  size?: number;
  /** Tasks that may wait for a thread; beyond, 503 with Retry-After. */
  maxQueue?: number;
  /** A task running longer ends its thread (a new one replaces it) and fails with `tooLong`. */
  timeoutMs: number;
  /** The thread's heap: a task past it ends its thread only, and fails with `tooLarge` (default: Node's). */
  resourceLimits?: ResourceLimits;
  /** Human messages (and codes) for a task that ran too long, or needed too much memory. */
  tooLong: { code: AppErrorCode; message: string };
  tooLarge: { code: AppErrorCode; message: string };
  busy: string;
  /**
   * The 400's message for a task the thread cannot be sent (structured clone refuses it: too deep,
   * not cloneable), followed by the reason; that task fails alone (issue 25).
   */
  unsendable?: string;
}

interface Job<T, R> {
  task: T;
  /** Moved to the thread with the task, not copied (an upload's bytes). */
  transfer: readonly TransferListItem[];
  resolve: (r: R) => void;
  reject: (e: Error) => void;
}

/**
 * A small bounded pool of worker threads for work a hostile input can make long or large (reading
 * uploaded files): the event loop never runs it, a task that runs too long or fills its heap ends
 * its own thread only, and a new thread serves the next. Threads start on first use, stay, and do
 * not keep the process alive.
 */
export class WorkerPool<T, R> {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, { job: Job<T, R>; timer: NodeJS.Timeout }>();
  private readonly queue: Job<T, R>[] = [];
  private count = 0;
  private closed = false;
  private readonly size: number;

  constructor(private readonly opts: WorkerPoolOptions) {
    this.size = opts.size ?? Math.min(2, Math.max(1, availableParallelism() - 1));
  }

  /**
   * `task` on a thread when one is free. `transfer` (an upload's ArrayBuffer) is moved to the thread
   * with it rather than copied on the event loop; the caller must not read it afterwards.
   */
  run(task: T, transfer: readonly TransferListItem[] = []): Promise<R> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The server is shutting down'));
    if (this.queue.length >= (this.opts.maxQueue ?? 8)) {
      return Promise.reject(new AppError('unavailable', this.opts.busy, { headers: { 'Retry-After': '2' } }));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ task, transfer, resolve, reject });
      this.next();
    });
  }

  /**
   * `task` once on each thread the pool may start, all asked at once so each starts its own thread
   * (a warm-up: what a thread loads on first use is loaded before a request needs it). Tasks asked
   * meanwhile wait their turn in the queue, as behind any task. Resolves with each thread's answer.
   */
  warmUp(task: T): Promise<R[]> {
    return Promise.all(Array.from({ length: this.size }, () => this.run(task)));
  }

  /** How many tasks are running and waiting (for tests and the status card). */
  get load(): { running: number; waiting: number } {
    return { running: this.busy.size, waiting: this.queue.length };
  }

  private next(): void {
    while (this.queue.length > 0) {
      let worker = this.idle.pop();
      if (!worker && this.count < this.size) worker = this.start();
      if (!worker) return;
      const job = this.queue.shift()!;
      if (!this.send(worker, job)) continue;
      const timer = setTimeout(() => {
        const { code, message } = this.opts.tooLong;
        this.fail(worker, new AppError(code, message));
        void worker.terminate();
      }, this.opts.timeoutMs);
      this.busy.set(worker, { job, timer });
    }
  }

  /**
   * Hands a task to an idle thread. A task that cannot be sent fails alone with a 400 and the thread
   * goes back to the idle list: it is never marked busy, so no timer is left to trip over it.
   */
  private send(worker: Worker, job: Job<T, R>): boolean {
    try {
      worker.postMessage(job.task, job.transfer);
      return true;
    } catch (err) {
      this.idle.push(worker);
      const why = err instanceof Error ? err.message : String(err);
      job.reject(
        new AppError(
          'bad_request',
          `${this.opts.unsendable ?? 'The request cannot be sent to a thread'}: ${why}`,
        ),
      );
      return false;
    }
  }

  private start(): Worker {
    const limits = this.opts.resourceLimits;
    const worker = spawnWorker(this.opts.from, this.opts.file, limits ? { resourceLimits: limits } : {});
    this.count++;
    worker.on('message', (answer: TaskAnswer<R>) => {
      const running = this.busy.get(worker);
      if (!running) return;
      clearTimeout(running.timer);
      this.busy.delete(worker);
      if (answer.ok) running.job.resolve(answer.result);
      else if (answer.code) {
        const extra = answer.fields ? { fields: answer.fields } : {};
        running.job.reject(new AppError(answer.code, answer.message, extra));
      } else running.job.reject(new Error(answer.message));
      this.idle.push(worker);
      this.next();
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const { code, message } = this.opts.tooLarge;
      this.fail(worker, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new AppError(code, message) : err);
    });
    worker.on('exit', () => this.fail(worker, new Error('worker thread stopped')));
    // Unref'd after the 'message' listener: on Node 20 a listener added to an unref'd worker refs its
    // port again, and the process then stays alive after its work is done (decision 074).
    worker.unref();
    return worker;
  }

  /** A thread that failed or ended: its task fails, the thread is forgotten, the queue goes on. */
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
