/**
 * Background work over a queue, one drain at a time: `start` after adding to the queue runs `drain`
 * unless one is running; `idle` resolves once none is. Work added while a drain was ending (after
 * its last look at the queue, before it settled) starts the next drain instead of waiting for the
 * next add.
 */
export class BackgroundDrain {
  private running: Promise<void> | null = null;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly drain: () => Promise<void>,
    private readonly hasWork: () => boolean,
  ) {}

  start(): void {
    this.running ??= this.drain().finally(() => {
      this.running = null;
      if (this.hasWork()) this.start();
      else for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves when the queue is drained (tests, benches). */
  idle(): Promise<void> {
    return this.running ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }
}
