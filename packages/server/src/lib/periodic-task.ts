import type { BackgroundTask } from './background-task.js';

/**
 * Background upkeep on its own timer (decision 048): runs once at start, then every `everyMs`; never
 * two runs at once; a failed run is logged and tried again next time. Started by the processes that
 * do background work (not ROLE=web).
 */
export class PeriodicTask implements BackgroundTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly name: string,
    private readonly work: () => Promise<unknown>,
    private readonly everyMs: number,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.everyMs);
    this.timer.unref();
    void this.runOnce();
  }

  /** One run (never two at once). */
  async runOnce(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.work()
      .then(() => undefined)
      .catch((err: unknown) => console.error(`bvdb ${this.name}:`, err instanceof Error ? err.message : err))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
