import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client.js';
import type { ChangeListener } from '../db/change-listener.js';
import type { FastReads } from './fast-reads.js';
import { hashingLoad, hashingRefusals } from './password.js';
import type { ResponseCache } from './response-cache.js';

/** Seconds: a cached read takes well under a millisecond, an export or a statistics run seconds. */
const REQUEST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One batch of recompute requests a process drained, as the metrics count it. */
export interface RecomputeBatchCount {
  done: number;
  failed: number;
  seconds: number;
}

/**
 * What the metrics read of the recompute, as callbacks (a port, decision 077): the recompute
 * queue's worker implements it, and app.ts hands that worker in through `app.deps`.
 */
export interface RecomputeMeter {
  /** Measurands waiting for a recompute (the outbox's rows, claimed ones included). */
  pending(): Promise<number>;
  /** Calls `listener` after every batch this process drained; returns the unsubscribe. */
  onBatch(listener: (batch: RecomputeBatchCount) => void): () => void;
}

export interface MetricsSources {
  database: Database;
  cache: ResponseCache;
  fastReads: () => FastReads;
  recompute: RecomputeMeter;
  changes?: () => ChangeListener | undefined;
}

/** One series of the request histogram: counts per bucket (the last one past every bound). */
interface Series {
  labels: { method: string; route: string; status: string };
  counts: number[];
  sum: number;
  count: number;
}

/**
 * The request histogram, kept by hand and exposed through prom-client's registry (which takes any
 * object with `name`, `help`, `type` and `get()`). prom-client's own Histogram validates and hashes
 * its labels on every observation (about a microsecond, and garbage); this one finds its series by
 * one string key and adds to plain numbers, and builds the exposition only when scraped.
 */
class RequestHistogram {
  readonly name = 'bvdb_http_request_duration_seconds';
  readonly help =
    'HTTP requests answered, by method, route pattern and status, with the time to answer (the fast read path included; _count is the number of requests)';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  constructor(private readonly bounds: readonly number[]) {}

  observe(method: string, route: string | undefined, status: number, seconds: number): void {
    const key = `${method} ${status} ${route ?? ''}`;
    let s = this.series.get(key);
    if (!s) {
      const labels = {
        method: METHODS.has(method) ? method : 'OTHER',
        route: route ?? 'unmatched',
        status: String(status),
      };
      s = { labels, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]!) i++;
    s.counts[i]! += 1;
    s.sum += seconds;
    s.count += 1;
  }

  /** The samples in prom-client's shape: cumulative `_bucket`s up to `+Inf`, `_sum`, `_count`. */
  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.counts[i]!;
        values.push({ labels: { ...s.labels, le }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...s.labels, le: '+Inf' }, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.series.clear();
  }
}

/**
 * The Prometheus metrics of one app (decision 045): a registry of its own, so several apps in one
 * process (the tests) never share or re-register a name. Everything but the request histogram is
 * read when scraped (gauges and counters with `collect`), so the work a request pays for is one
 * histogram observation on a child looked up by a string key.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestHistogram(REQUEST_BUCKETS);
  private readonly unsubscribe: (() => void) | undefined;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'bvdb_' });
    this.registry.registerMetric(this.requests as never);
    const { cache } = sources;
    new Counter({
      name: 'bvdb_read_cache_hits_total',
      help: 'Reads answered from a kept answer: `full` through Fastify, `fast` replayed by the fast read path',
      labelNames: ['path'],
      registers,
      collect() {
        this.reset();
        this.labels('full').inc(cache.hits);
        this.labels('fast').inc(sources.fastReads().replayed);
      },
    });
    new Counter({
      name: 'bvdb_read_cache_misses_total',
      help: 'Cached reads that had to build their answer',
      registers,
      collect() {
        this.reset();
        this.inc(cache.misses);
      },
    });
    const { recompute } = sources;
    new Gauge({
      name: 'bvdb_recompute_queue_depth',
      help: 'Measurands waiting for a meta-analysis recompute (rows of meta_recompute_requests, claimed ones included)',
      registers,
      async collect() {
        // A database that is away leaves the last value; /readyz says why.
        const n = await recompute.pending().catch(() => undefined);
        if (n !== undefined) this.set(n);
      },
    });
    const drained = new Counter({
      name: 'bvdb_recompute_requests_total',
      help: 'Recompute requests this process drained, by outcome (`done`, or `failed`: retried later or dropped after the last attempt)',
      labelNames: ['outcome'],
      registers,
    });
    drained.labels('done').inc(0);
    drained.labels('failed').inc(0);
    const batches = new Histogram({
      name: 'bvdb_recompute_batch_duration_seconds',
      help: 'Time to recompute one claimed batch of measurands (this process; ROLE=all or worker)',
      buckets: BATCH_BUCKETS,
      registers,
    });
    this.unsubscribe = recompute.onBatch((batch) => {
      drained.labels('done').inc(batch.done);
      drained.labels('failed').inc(batch.failed);
      batches.observe(batch.seconds);
    });
    new Gauge({
      name: 'bvdb_password_hash_admitted',
      help: 'Password checks admitted to the hashing queue (running or waiting)',
      registers,
      collect() {
        this.set(hashingLoad().admitted);
      },
    });
    new Gauge({
      name: 'bvdb_password_hash_running',
      help: 'Password hashes running in the hashing threads now',
      registers,
      collect() {
        this.set(hashingLoad().running);
      },
    });
    new Counter({
      name: 'bvdb_password_hash_refused_total',
      help: 'Password checks refused with 503 because the hashing queue was full',
      registers,
      collect() {
        this.reset();
        this.inc(hashingRefusals() + sources.fastReads().refused);
      },
    });
    const { database } = sources;
    new Gauge({
      name: 'bvdb_database_info',
      help: 'The database engine: `postgres` (a server, pooled connections) or `pglite` (embedded, one connection in this process)',
      labelNames: ['engine'],
      registers,
    }).set({ engine: database.kind }, 1);
    const pool = database.pool;
    if (pool) {
      const poolGauge = (name: string, help: string, read: () => number) =>
        new Gauge({
          name,
          help,
          registers,
          collect() {
            this.set(read());
          },
        });
      poolGauge(
        'bvdb_db_pool_connections',
        'Connections the pool holds (in use and idle)',
        () => pool.totalCount,
      );
      poolGauge('bvdb_db_pool_idle_connections', 'Pool connections idle', () => pool.idleCount);
      poolGauge(
        'bvdb_db_pool_waiting_requests',
        'Queries waiting for a pool connection',
        () => pool.waitingCount,
      );
      poolGauge(
        'bvdb_db_pool_max_connections',
        'Most connections the pool opens',
        () => pool.options.max ?? 10,
      );
      new Gauge({
        name: 'bvdb_change_listener_up',
        help: "1 while the connection that LISTENs for other processes' writes is up (0: the read cache polls)",
        registers,
        collect() {
          this.set(sources.changes?.()?.listening ? 1 : 0);
        },
      });
    }
  }

  /** Counts one answered request (`route`: the route pattern, `unmatched` when none). */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  close(): void {
    this.unsubscribe?.();
  }
}
