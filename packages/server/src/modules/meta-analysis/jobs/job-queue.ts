import PgBoss from 'pg-boss';
import type { Database } from '../../../db/client.js';
import { insertJob, setJid } from './job-records.repository.js';
import {
  META_JOB_NAMES,
  workMetaRecompute,
  type MetaRecomputePayload,
} from '../recompute/meta-recompute.job.js';

const META_QUEUE = 'meta-recompute';

/**
 * Background jobs on pg-boss, in the same database as everything else, through our own connection
 * (an executeSql adapter): PGlite's single connection, or the server pool.
 */
export class JobQueue {
  private boss: PgBoss;
  private started = false;

  constructor(
    private readonly database: Database,
    private readonly onDataChanged: () => void,
  ) {
    const common = {
      schema: 'pgboss',
      supervise: true,
      schedule: false,
      retryLimit: 2,
      retryDelay: 5,
    } as const;
    this.boss = new PgBoss({
      ...common,
      db: { executeSql: (text, values) => database.execute(text, values) },
    });
    this.boss.on('error', (err) => console.error('bvdb jobs:', err.message));
  }

  async start(opts: { work: boolean }): Promise<void> {
    await this.boss.start();
    await this.boss.createQueue(META_QUEUE);
    this.started = true;
    if (opts.work) {
      await this.boss.work(META_QUEUE, { pollingIntervalSeconds: 1 }, async ([job]) => {
        if (!job) return;
        await workMetaRecompute(this.database.db, job.data, this.onDataChanged);
      });
    }
  }

  /** Records the job in our table (what the tracker shows) and hands it to the queue. */
  async enqueueMetaRecompute(scope: MetaRecomputePayload['scope'], analyteIds?: number[]) {
    const name = META_JOB_NAMES[scope];
    const record = await insertJob(this.database.db, {
      name,
      queue: META_QUEUE,
      className: scope === 'matrices' ? 'MetaCalculationJob' : 'ConsolidatedMetaCalculationJob',
      payload: { scope, analyteIds: analyteIds ?? null },
    });
    const payload: MetaRecomputePayload = { jobId: record.id, scope, ...(analyteIds ? { analyteIds } : {}) };
    const jid = await this.boss.send(META_QUEUE, payload);
    if (jid) await setJid(this.database.db, record.id, jid);
    return { ...record, jid };
  }

  get isStarted(): boolean {
    return this.started;
  }

  async stop(): Promise<void> {
    if (this.started) await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.started = false;
  }
}
