import type { StatsResult, StatsRow } from '@bvdb/contract';
import { metaAnalyse, metaAnalyseRService, type MetaInputRow } from '@bvdb/domain';
import { AppError } from '../../../lib/app-error.js';
import { WorkerPool } from '../../../lib/worker-pool.js';
import { presentStatsResult } from './stats.presenter.js';

const inputOf = (rows: StatsRow[]): MetaInputRow[] =>
  rows.map((r) => ({
    id: r.ID,
    include: r.Include,
    score: r.Score,
    cv: r.CV,
    ciLower: r.CI_lower,
    ciUpper: r.CI_upper,
  }));

/**
 * The built-in statistics service: the outside R service's rule on its rows (grade-D rows kept with
 * weight 0, a zero-width CI weighted infinitely: metaAnalyseRService), so the two are interchangeable.
 */
export function runMetacalculation(rows: StatsRow[], seed?: number): StatsResult {
  return presentStatsResult(metaAnalyseRService(inputOf(rows), seed !== undefined ? { seed } : {}));
}

/** What bvdb's own recompute would publish from the same rows (decision 003: grade D never enters). */
export function runBvdbRule(rows: StatsRow[], seed?: number): StatsResult {
  return presentStatsResult(metaAnalyse(inputOf(rows), seed !== undefined ? { seed } : {}));
}

/** Bytes per statistics request: ~10,000 rows of CSV (MAX_STATS_ROWS) with room to spare. */
export const MAX_STATS_BYTES = 512 * 1024;

/** 422 past the cap, before any work: by the declared length, or the text's when there is none. */
export function checkStatsBodySize(contentLength: number, body: unknown): void {
  const bytes = contentLength || (typeof body === 'string' ? Buffer.byteLength(body) : 0);
  if (bytes > MAX_STATS_BYTES) {
    throw new AppError(
      'unprocessable',
      `The body is ${Math.ceil(bytes / 1024)} KB: at most ${MAX_STATS_BYTES / 1024} KB per request`,
    );
  }
}

/** One statistics request's work for a pool thread: its body as sent, and the bootstrap's seed. */
export interface StatsTask {
  body: unknown;
  seed: number | undefined;
}

/**
 * A small bounded pool of threads for the statistics endpoint (decision 017), so a large CSV or a
 * bootstrap never holds the event loop: min(2, cores − 1) threads, 16 waiting requests, 20 s each.
 */
export const createStatsPool = (opts: { size?: number; maxQueue?: number; timeoutMs?: number } = {}) =>
  new WorkerPool<StatsTask, StatsResult>({
    from: import.meta.url,
    file: './stats.thread.js',
    maxQueue: 16,
    timeoutMs: 20_000,
    ...opts,
    tooLong: { code: 'unavailable', message: 'The calculation took too long; try fewer rows' },
    tooLarge: {
      code: 'payload_too_large',
      message: 'The calculation needs too much memory: send fewer rows',
    },
    busy: 'The statistics service is busy; try again in a few seconds',
    unsendable: 'The request body cannot be calculated on',
  });
export type StatsPool = ReturnType<typeof createStatsPool>;

/** The endpoint's work (parse the body, run the R service's rule) on a pool thread. */
export const calculateOffThread = (pool: StatsPool, body: unknown, seed?: number) => pool.run({ body, seed });

/** The outside statistics service, for the tools that compare with it. */
export { calculateMeta, statsEndpoints } from './stats-client.js';
