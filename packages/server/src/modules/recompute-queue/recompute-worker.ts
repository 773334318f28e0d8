import { randomUUID } from 'node:crypto';
import PgBoss from 'pg-boss';
import { withStartupLock, type Database, type DbOrTx } from '../../db/client.js';
import { listAnalyteIdsToRecompute } from '../meta-analysis/index.js';
import { listAnalytesWithUnversionedResults } from '../estimates/index.js';
import { markFinished, parseLegacyPayload } from '../jobs/index.js';
import {
  META_QUEUE,
  countPendingRecomputes,
  drainOnce,
  releaseAllClaims,
  requestRecompute,
  requestUntracked,
  type DrainOptions,
  type DrainTally,
} from './recompute.service.js';
import type { RecomputeMeter } from '../../lib/metrics.js';
import { jsonLineLog, OutageLog } from '../../lib/outage-log.js';
import type { RecomputeDoor, RecomputeRequest } from '../../lib/recompute-door.js';

/** Where the worker's lines go: the process's JSON log (main.ts), the console when none is given. */
export interface RecomputeLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Without the process's log (tests, the command line): failures as JSON lines on stdout. */
const stdoutLines = jsonLineLog();
const consoleLog: RecomputeLog = {
  info: () => undefined,
  error: (obj, msg) => stdoutLines.error(obj, msg),
};

/** One claimed batch of recompute requests, as logged and counted (lib/metrics.ts). */
export interface RecomputeBatch extends DrainTally {
  claimed: number;
  seconds: number;
}

export interface RecomputeWorkerOptions extends Partial<Omit<DrainOptions, 'worker'>> {
  log?: RecomputeLog;
  /** How often an idle worker looks for requests other processes made. */
  pollMs?: number;
}

const DEFAULTS = {
  batchSize: 200,
  chunkSize: 25,
  leaseSeconds: 30,
  maxAttempts: 3,
  retryDelaySeconds: 5,
  pollMs: 1000,
};

/**
 * The one worker of the recompute (decision 048; the outbox of decision 016). Writes ask through
 * its door, `request(tx, { analyteIds, cause })`, which records one outbox row per measurand in the
 * write's own transaction (meta_recompute_requests); the worker claims rows with leases and
 * recomputes them, a chunk per transaction. `start({ work: true })` polls (and is woken after a
 * commit); a process that does not work (ROLE=web, tests) still records, and `settle()` drains
 * here until nothing is left — what tests await. pg-boss, on our own connection (an executeSql
 * adapter), only takes over what a previous release left in its former queue.
 */
export class RecomputeWorker implements RecomputeDoor, RecomputeMeter {
  private boss: PgBoss;
  private started = false;
  private working = false;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private asked = false;
  private readonly opts: Required<Omit<RecomputeWorkerOptions, 'log'>>;
  private readonly log: RecomputeLog;
  private readonly batchListeners = new Set<(batch: RecomputeBatch) => void>();
  /** A drain that fails every poll (the database away) is logged once, and once when it works again. */
  private readonly drainOutage: OutageLog;
  readonly worker = `${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly database: Database,
    private readonly onDataChanged: () => void,
    options: RecomputeWorkerOptions = {},
  ) {
    const { log, ...rest } = options;
    this.opts = { ...DEFAULTS, ...rest };
    this.log = log ?? consoleLog;
    this.drainOutage = new OutageLog(
      { error: (obj, msg) => this.log.error(obj, msg), info: (obj, msg) => this.log.info(obj, msg) },
      'recompute drain',
    );
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
    await this.requestUnversioned();
    await this.boss.work(META_QUEUE, { pollingIntervalSeconds: 5 }, async ([job]) => {
      if (job) await this.takeOverLegacyJob(job.data);
    });
    this.timer = setInterval(() => this.wake(), this.opts.pollMs);
    this.wake();
  }

  /**
   * The door: asks, inside the caller's transaction, for the recompute of these measurands (all
   * when no ids), with its cause; returns the tracker record. `writeTransaction` calls
   * `afterCommit()` once the write commits, so this process's worker starts at once.
   */
  request(tx: DbOrTx, request: RecomputeRequest) {
    this.asked = true;
    return requestRecompute(tx, request);
  }

  /**
   * Asks for the recompute of every measurand whose shown results are not their latest estimate
   * version (issue 43.14): what a previous release wrote during a rolling upgrade (results, no
   * versions). The recompute records them, as it compares with the latest version. Run at start by
   * the process that works the queue; returns how many measurands it asked for.
   */
  async requestUnversioned(): Promise<number> {
    const analyteIds = await listAnalytesWithUnversionedResults(this.database.db);
    if (analyteIds.length === 0) return 0;
    await this.database.db.transaction((tx) =>
      requestRecompute(tx, { analyteIds, cause: { kind: 'initial', role: 'system' } }),
    );
    this.log.info({ measurands: analyteIds.length }, 'results without an estimate version: recompute asked');
    return analyteIds.length;
  }

  /** After a commit: wakes the worker when the transaction asked for a recompute. */
  afterCommit(): void {
    if (!this.asked) return;
    this.asked = false;
    this.wake();
  }

  /** Drains the requests now (this process works) instead of at the next poll. */
  wake(): void {
    if (!this.working) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .then(
        () => this.drainOutage.succeeded(),
        (err: unknown) => this.drainOutage.failed(err),
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

  /**
   * Drains the outbox in this process until it is empty, whether or not the worker was started:
   * what tests await after a write (`app.deps.recompute.settle()`) to read the new results. Rows
   * another worker holds or a failed row waiting for its retry are waited for, up to `timeoutMs`.
   */
  async settle(timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      await this.idle();
      const drain: DrainOptions = { ...this.opts, worker: this.worker };
      while ((await drainOnce(this.database.db, drain, this.onDataChanged)) > 0) {
        // Look again until nothing is due.
      }
      if ((await countPendingRecomputes(this.database.db)) === 0) return;
      if (Date.now() > until) throw new Error('The recompute requests did not settle in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
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

  /** The measurands waiting for a recompute, claimed ones included (the queue-depth gauge). */
  pending(): Promise<number> {
    return countPendingRecomputes(this.database.db);
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
