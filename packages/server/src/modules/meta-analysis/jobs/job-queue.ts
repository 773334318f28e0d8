import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { withStartupLock, type Database, type DbOrTx } from '../../../db/client.js';
import { purgeExpiredSessions } from '../../auth/auth.service.js';
import { parseLegacyPayload } from '../recompute/meta-recompute.job.js';
import { markFinished } from './job-records.service.js';
import {
  META_QUEUE,
  drainOnce,
  releaseAllClaims,
  requestMetaRecompute,
  requestUntracked,
  type DrainOptions,
  type DrainTally,
} from './recompute-requests.service.js';
import { listAnalyteIdsToRecompute } from '../recompute/meta-recompute.service.js';

/** Where the queue's lines go: the process's JSON log (main.ts), the console when none is given. */
export interface JobLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const consoleLog: JobLog = {
  info: () => undefined,
  error: (obj, msg) => console.error(`bvdb jobs: ${msg}`, obj),
};

/** One claimed batch of recompute requests, as logged and counted (lib/metrics.ts). */
export interface RecomputeBatch extends DrainTally {
  claimed: number;
  seconds: number;
}

export interface JobQueueOptions extends Partial<Omit<DrainOptions, 'worker'>> {
  log?: JobLog;
  /** How often an idle worker looks for requests other processes made. */
  pollMs?: number;
  /** How often expired sessions are deleted. */
  purgeEveryMs?: number;
}

const DEFAULTS = {
  batchSize: 200,
  chunkSize: 25,
  leaseSeconds: 30,
  maxAttempts: 3,
  retryDelaySeconds: 5,
  pollMs: 1000,
  purgeEveryMs: 10 * 60 * 1000,
};

/**
 * Background work on the same database as everything else. Meta-analysis recomputes go through an
 * outbox table (meta_recompute_requests) written in the data change's own transaction, one row per
 * measurand, drained by a polling worker with leases (decision 016). pg-boss, on our own connection
 * (an executeSql adapter), only drains what a previous version left in its former queue.
 */
export class JobQueue {
  private boss: PgBoss;
  private started = false;
  private working = false;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private lastPurge = 0;
  private readonly opts: Required<Omit<JobQueueOptions, 'log'>>;
  private readonly log: JobLog;
  private readonly batchListeners = new Set<(batch: RecomputeBatch) => void>();
  readonly worker = `${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly database: Database,
    private readonly onDataChanged: () => void,
    options: JobQueueOptions = {},
  ) {
    const { log, ...rest } = options;
    this.opts = { ...DEFAULTS, ...rest };
    this.log = log ?? consoleLog;
    this.boss = new PgBoss({
      schema: 'pgboss',
      supervise: true,
      schedule: false,
      retryLimit: 2,
      retryDelay: 5,
      db: { executeSql: (text, values) => database.execute(text, values) },
    });
    this.boss.on('error', (err) => this.log.error({ err: err.message }, 'pg-boss error'));
  }

  async start(opts: { work: boolean }): Promise<void> {
    // Under the start-up lock: two replicas creating pg-boss's schema or its queue partition at
    // once deadlock in PostgreSQL (the partition's ATTACH waits on the other's queue row).
    await withStartupLock(this.database, async () => {
      await this.boss.start();
      await this.boss.createQueue(META_QUEUE);
    });
    this.started = true;
    if (!opts.work) return;
    this.working = true;
    // The embedded database has one process: claims found at start belong to a killed run.
    if (this.database.kind === 'pglite') await releaseAllClaims(this.database.db);
    await this.boss.work(META_QUEUE, { pollingIntervalSeconds: 5 }, async ([job]) => {
      if (job) await this.takeOverLegacyJob(job.data);
    });
    this.timer = setInterval(() => this.wake(), this.opts.pollMs);
    this.wake();
  }

  /**
   * Asks, inside the caller's transaction, for the recompute of these measurands (all when no ids);
   * returns the tracker record. Call `wake()` after the commit for an immediate start.
   */
  requestMetaRecompute(tx: DbOrTx, analyteIds?: number[]) {
    return requestMetaRecompute(tx, analyteIds);
  }

  /** Drains the requests now (this process works) instead of at the next poll. */
  wake(): void {
    if (!this.working) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((err: unknown) =>
        this.log.error({ err: err instanceof Error ? err.message : String(err) }, 'recompute drain failed'),
      )
      .finally(() => {
        this.draining = undefined;
        if (this.again && this.working) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves when this process has no recompute running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    const { db } = this.database;
    const drain: DrainOptions = { ...this.opts, worker: this.worker };
    for (;;) {
      if (!this.working) break;
      const startedAt = performance.now();
      const tally: DrainTally = { done: 0, failed: 0 };
      const claimed = await drainOnce(db, drain, this.onDataChanged, tally);
      // Claimed a full batch or part of one: say so, and look again until nothing is due.
      if (claimed === 0) break;
      const seconds = (performance.now() - startedAt) / 1000;
      const batch: RecomputeBatch = { claimed, ...tally, seconds };
      this.log.info(
        { claimed, done: tally.done, failed: tally.failed, ms: Math.round(seconds * 1000) },
        'recompute batch',
      );
      for (const listener of this.batchListeners) listener(batch);
    }
    if (Date.now() - this.lastPurge >= this.opts.purgeEveryMs) {
      this.lastPurge = Date.now();
      await purgeExpiredSessions({ db });
    }
  }

  private async takeOverLegacyJob(data: unknown): Promise<void> {
    const { db } = this.database;
    const parsed = parseLegacyPayload(data);
    if (!parsed.ok) {
      if (parsed.jobId !== null) await markFinished(db, parsed.jobId, 'failed', parsed.message);
      throw new Error(parsed.message);
    }
    const { jobId, analyteIds } = parsed.payload;
    await db.transaction(async (tx) => {
      await requestUntracked(tx, analyteIds ?? (await listAnalyteIdsToRecompute(tx)));
      await markFinished(tx, jobId, 'complete');
    });
    this.wake();
  }

  /** Calls `listener` after every claimed batch this process drained; returns the unsubscribe. */
  onBatch(listener: (batch: RecomputeBatch) => void): () => void {
    this.batchListeners.add(listener);
    return () => this.batchListeners.delete(listener);
  }

  get isStarted(): boolean {
    return this.started;
  }

  async stop(): Promise<void> {
    this.working = false;
    clearInterval(this.timer);
    await this.idle();
    if (this.started) await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.started = false;
  }
}
