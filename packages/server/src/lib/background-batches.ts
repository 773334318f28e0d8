import { BackgroundDrain } from './background-drain.js';

/**
 * Items handed to background work in batches: `push` queues one, and a drain takes up to
 * `batchSize` of them at a time (those pushed in the same turn of the event loop join the batch)
 * and awaits `run` on them, one batch after the other. `run` handles its own failures. Used by the
 * records' compaction (decision 106) and the page items' chaining (decision 107).
 */
export class BackgroundBatches<T> {
  private waiting: T[] = [];
  private readonly drainer = new BackgroundDrain(
    () => this.drain(),
    () => this.waiting.length > 0,
  );

  constructor(
    private readonly batchSize: number,
    private readonly run: (batch: T[]) => Promise<void>,
  ) {}

  /** Items waiting for their batch. */
  get size(): number {
    return this.waiting.length;
  }

  push(item: T): void {
    this.waiting.push(item);
    this.drainer.start();
  }

  /** Resolves when every item pushed so far has been run (tests, benches). */
  idle(): Promise<void> {
    return this.drainer.idle();
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      // The items pushed in this turn join the batch.
      await new Promise((resolve) => setImmediate(resolve));
      await this.run(this.waiting.splice(0, this.batchSize));
    }
  }
}
