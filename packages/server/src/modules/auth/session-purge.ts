import type { Db } from '../../db/client.js';
import { purgeExpiredSessions } from './auth.service.js';

/**
 * Deletes expired sessions now and then, on its own timer (it ran inside the recompute worker's
 * loop before decision 048; a session has nothing to do with the recompute). Started by the
 * processes that do background work (not ROLE=web); a failed purge is logged and retried next time.
 */
export class SessionPurge {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly everyMs = 10 * 60 * 1000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runOnce(), this.everyMs);
    this.timer.unref();
    void this.runOnce();
  }

  /** One purge (never two at once). */
  async runOnce(): Promise<void> {
    if (this.running) return this.running;
    this.running = purgeExpiredSessions({ db: this.db })
      .then(() => undefined)
      .catch((err: unknown) => console.error('bvdb session purge:', err instanceof Error ? err.message : err))
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
