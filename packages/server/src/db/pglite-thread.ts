import type { Worker } from 'node:worker_threads';
import { spawnWorker } from '../lib/spawn-worker.js';
import type { ThreadAnswer, ThreadAsk, ThreadReady, ThreadStart } from './pglite-thread-protocol.js';

type Answered = Extract<ThreadAnswer, { ok: true }>;
type Ask = ThreadAsk extends infer A ? (A extends { id: number } ? Omit<A, 'id'> : never) : never;

/** What a query answers: PGlite's own result shape, as the in-process driver answered it. */
export interface ThreadResult {
  rows: unknown[];
  affectedRows?: number | undefined;
  fields: { name: string; dataTypeID: number }[];
}

/**
 * The embedded database's thread is not running (it died, is being started again, or was closed):
 * the request answers 503 with Retry-After (`isDatabaseUnavailable`), as a lost PostgreSQL
 * connection does.
 */
export class EmbeddedDatabaseUnavailableError extends Error {
  constructor(why: string) {
    super(`the embedded database thread is not running (${why})`);
    this.name = 'EmbeddedDatabaseUnavailableError';
  }
}

export interface PgliteThreadOptions {
  start: ThreadStart;
  /** Told when the thread died unexpectedly (the queries in flight fail with 503). */
  onLost?: (err: Error) => void;
  /** Told when a new thread took over after a loss. */
  onBack?: (restarts: number) => void;
  /**
   * Told when the thread cannot be started again (an in-memory database, whose rows died with it,
   * or a folder that no longer opens after `maxRestarts` tries): the process should stop.
   */
  onFatal?: (err: Error) => void;
  /** Tries to start a new thread after a loss, 0.2 s apart then doubling (default 5). */
  maxRestarts?: number;
}

/** A first-come lock: one holder at a time, the others wait in order. */
class TurnLock {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

/**
 * PGlite in a worker thread that owns it (decision 085). The event loop sends SQL and receives the
 * decoded rows; reading rows out of the WebAssembly heap, decoding them and PGlite's garbage stay on
 * that thread. It looks like a node-postgres pool to drizzle's node-postgres driver (its name says
 * "Pool", so drizzle checks a client out for a transaction): one session, so a checked-out client
 * holds the database until it is released, and any other query waits its turn — the order PGlite
 * keeps in process, so two transactions never interleave.
 */
export class PgliteThreadPool {
  private worker: Worker | undefined;
  private readonly pending = new Map<
    number,
    { resolve: (a: Answered) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  private state: 'starting' | 'ready' | 'down' | 'closed' = 'starting';
  private generation = 0;
  private restartCount = 0;
  private readonly turn = new TurnLock();

  private constructor(private readonly opts: PgliteThreadOptions) {}

  /** Starts the thread and waits for PGlite to be open. */
  static async open(opts: PgliteThreadOptions): Promise<PgliteThreadPool> {
    const pool = new PgliteThreadPool(opts);
    await pool.spawn();
    return pool;
  }

  /** Threads started again after a loss since this pool was opened. */
  get restarts(): number {
    return this.restartCount;
  }

  get running(): boolean {
    return this.state === 'ready';
  }

  private spawn(): Promise<void> {
    const worker = spawnWorker(import.meta.url, './pglite.thread.js', { workerData: this.opts.start });
    worker.unref();
    this.worker = worker;
    this.state = 'starting';
    const generation = ++this.generation;
    return new Promise((resolve, reject) => {
      let opened = false;
      worker.on('message', (msg: ThreadAnswer | ThreadReady) => {
        if ('ready' in msg) {
          if (msg.ready) {
            opened = true;
            this.state = 'ready';
            resolve();
          } else {
            reject(Object.assign(new Error(msg.error.message), msg.error.fields));
            void worker.terminate();
          }
          return;
        }
        const waiter = this.pending.get(msg.id);
        if (!waiter) return;
        this.pending.delete(msg.id);
        this.refWhileBusy();
        // Handed over in the loop's check phase, not in the port's message loop: a port delivers
        // every message it has in one go, and the next answer (sent while this one's caller ran)
        // would be delivered before the loop ever polls sockets again — fifty pages at once kept
        // /healthz waiting for seconds. Between two answers the loop now takes its I/O.
        setImmediate(() => {
          if (msg.ok) waiter.resolve(msg);
          else waiter.reject(Object.assign(new Error(msg.error.message), msg.error.fields));
        });
      });
      worker.on('error', (err) => {
        if (!opened) reject(err);
      });
      worker.on('exit', (code) => {
        if (!opened) {
          reject(new Error(`the embedded database thread exited (code ${code}) while opening`));
          return;
        }
        if (generation === this.generation) this.lost(code);
      });
    });
  }

  /** The thread keeps the process alive only while a query waits for it. */
  private refWhileBusy(): void {
    if (this.pending.size > 0) this.worker?.ref();
    else this.worker?.unref();
  }

  private lost(code: number): void {
    if (this.state === 'closed') return;
    this.state = 'down';
    this.worker = undefined;
    const err = new EmbeddedDatabaseUnavailableError(`it exited with code ${code}`);
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
    this.opts.onLost?.(err);
    if (!this.opts.start.pgdata) {
      this.opts.onFatal?.(new Error('the in-memory embedded database died with its thread'));
      return;
    }
    void this.restart(err);
  }

  private async restart(cause: Error): Promise<void> {
    const tries = this.opts.maxRestarts ?? 5;
    let delay = 200;
    for (let attempt = 1; attempt <= tries; attempt++) {
      await new Promise((r) => setTimeout(r, delay).unref());
      if (this.state === 'closed') return;
      try {
        await this.spawn();
        this.restartCount++;
        this.opts.onBack?.(this.restartCount);
        return;
      } catch (err) {
        cause = err instanceof Error ? err : new Error(String(err));
        this.state = 'down';
        delay = Math.min(delay * 2, 5_000);
      }
    }
    this.opts.onFatal?.(cause);
  }

  private send(ask: Ask, generation = this.generation): Promise<Answered> {
    const worker = this.worker;
    if (this.state !== 'ready' || !worker || generation !== this.generation) {
      return Promise.reject(
        new EmbeddedDatabaseUnavailableError(this.state === 'closed' ? 'closed' : 'it is starting again'),
      );
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.refWhileBusy();
      try {
        worker.postMessage({ ...ask, id });
      } catch (err) {
        // A parameter structured clone refuses: that query fails alone.
        this.pending.delete(id);
        this.refWhileBusy();
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    await this.turn.acquire();
    try {
      return await work();
    } finally {
      this.turn.release();
    }
  }

  /** node-postgres's `pool.query(config | text, values)`: one statement in its turn. */
  query(config: string | QueryConfig, values?: unknown[]): Promise<ThreadResult> {
    return this.inTurn(() => this.run(config, values));
  }

  private async run(config: string | QueryConfig, values: unknown[] | undefined, generation?: number) {
    const cfg = typeof config === 'string' ? { text: config } : config;
    const { rows, affectedRows, fields } = await this.send(
      {
        kind: 'query',
        text: cfg.text,
        params: values ?? cfg.values ?? [],
        rowMode: cfg.rowMode === 'array' ? 'array' : 'object',
        // drizzle's node-postgres configs carry its type parsers; they become PGlite's (the same rule).
        drizzleTypes: cfg.types !== undefined,
      },
      generation,
    );
    return { rows, affectedRows, fields };
  }

  /** A parameter-less script of several statements (pg-boss's), PGlite's `exec`; the last result. */
  exec(text: string): Promise<ThreadResult> {
    return this.inTurn(async () => {
      const { rows, affectedRows, fields } = await this.send({ kind: 'exec', text });
      return { rows, affectedRows, fields };
    });
  }

  /**
   * node-postgres's `pool.connect()`: the database is this client's until `release()` (drizzle
   * checks one out for a transaction). A client from before a thread's loss fails every query: its
   * transaction died with that thread.
   */
  async connect(): Promise<PgliteThreadClient> {
    await this.turn.acquire();
    const generation = this.generation;
    let released = false;
    return {
      query: (config, values) => {
        if (released) return Promise.reject(new Error('the embedded database client was released'));
        return this.run(config, values, generation);
      },
      release: () => {
        if (released) return;
        released = true;
        this.turn.release();
      },
    };
  }

  /** Closes PGlite in its thread (a checkpoint) and ends the thread. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const worker = this.worker;
    const wasReady = this.state === 'ready';
    this.state = 'closed';
    if (!worker) return;
    if (wasReady) {
      const id = this.nextId++;
      const done = new Promise<void>((resolve) => {
        this.pending.set(id, { resolve: () => resolve(), reject: () => resolve() });
        worker.once('exit', () => resolve());
      });
      worker.ref();
      worker.postMessage({ kind: 'close', id } satisfies ThreadAsk);
      await done;
    }
    await worker.terminate();
    for (const waiter of this.pending.values()) waiter.reject(new EmbeddedDatabaseUnavailableError('closed'));
    this.pending.clear();
  }

  /** Tests only: the thread dies as an out-of-memory or a bug in it would end it. */
  crashForTests(): void {
    this.worker?.postMessage({ kind: 'crash', id: 0 } satisfies ThreadAsk);
  }
}

interface QueryConfig {
  text: string;
  values?: unknown[];
  rowMode?: string;
  types?: unknown;
}

export interface PgliteThreadClient {
  query(config: string | QueryConfig, values?: unknown[]): Promise<ThreadResult>;
  release(): void;
}
