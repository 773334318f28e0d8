import type { BackgroundTask } from '../../lib/background-task.js';
import { FileCache } from '../../lib/file-cache.js';
import type { ServiceDeps } from '../../lib/service-deps.js';
import { ReleaseService } from './releases.service.js';

/**
 * The monthly release (issue 30.2, decision 058): every hour the processes that do background work
 * ask for a `schedule` release, which is made only in a calendar month (UTC) without a release yet
 * and only when the change feed moved since the previous one — in practice on the first check of
 * each month after something changed. The first release of a site is a curator's. Several processes may ask: the request takes an advisory
 * lock and looks again inside it, so one release is made. A failed check is logged and retried.
 */
export class ReleaseSchedule implements BackgroundTask {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly releases: Pick<ReleaseService, 'request' | 'idle'>,
    private readonly log: { error(obj: object, msg: string): void },
    private readonly everyMs = 60 * 60 * 1000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.checkOnce(), this.everyMs);
    this.timer.unref();
    void this.checkOnce();
  }

  async checkOnce(now = new Date()): Promise<void> {
    try {
      await this.releases.request('schedule', now);
    } catch (err) {
      this.log.error(
        { err: err instanceof Error ? err.message : String(err) },
        'monthly release check failed',
      );
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.releases.idle();
  }
}

/**
 * The monthly release as a background task of its own process (ROLE=worker has no app): a release
 * service with its own copies of the files, closed after the schedule stops.
 */
export function monthlyReleaseTask(deps: Pick<ServiceDeps, 'db' | 'log' | 'config'>): BackgroundTask {
  const copies = FileCache.forConfig(deps.config);
  const schedule = new ReleaseSchedule(new ReleaseService(deps, copies), deps.log);
  return {
    start: () => schedule.start(),
    stop: async () => {
      await schedule.stop();
      await copies.close();
    },
  };
}
