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

// The outside statistics service (STATS_URL), for the tools that compare with it.
const REMOTE_TIMEOUT_MS = 15_000;

/**
 * Where the statistics service lives. STATS_URL is its base: `{base}/metacalculation` takes the
 * rows and `{base}/health` answers "OK" (our own service is the same shape under /api/stats).
 */
export function statsEndpoints(statsUrl: string | undefined, ownOrigin: string) {
  const base = (statsUrl ?? `${ownOrigin}/api/stats`).replace(/\/+$/, '');
  return {
    external: statsUrl !== undefined,
    metacalculationUrl: `${base}/metacalculation`,
    statusUrl: `${base}/health`,
  };
}

/** The R service answers arrays (first element used, spec section 7) and "NA" for missing values. */
function first(v: unknown): number | null {
  const x = Array.isArray(v) ? (v as unknown[])[0] : v;
  if (x === null || x === undefined || x === 'NA') return null;
  const n = typeof x === 'number' ? x : Number(x);
  return Number.isFinite(n) ? n : null;
}

/**
 * One meta-analysis through the configured service: the outside one when STATS_URL is set (its N,
 * W.Median and limits win; the per-study weights, method and seed come from our engine when it
 * does not send them), else the built-in engine.
 */
export async function calculateMeta(
  statsUrl: string | undefined,
  rows: StatsRow[],
  seed?: number,
): Promise<StatsResult & { source: 'built-in' | 'remote' }> {
  const local = runMetacalculation(rows, seed);
  if (!statsUrl) return { ...local, source: 'built-in' };
  const { metacalculationUrl } = statsEndpoints(statsUrl, '');
  let body: Record<string, unknown>;
  try {
    const res = await fetch(metacalculationUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(rows),
      signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`${res.status} ${res.statusText}`);
    body = (await res.json()) as Record<string, unknown>;
  } catch (err) {
    throw new AppError(
      'bad_gateway',
      `The statistics service did not answer (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const remote = {
    N: first(body.N),
    'W.Median': first(body['W.Median']),
    Range_lower: first(body.Range_lower),
    Range_upper: first(body.Range_upper),
  };
  if (remote.N === null) throw new AppError('bad_gateway', 'The statistics service answered without N');
  return {
    ...local,
    ...(Array.isArray(body.weights) ? { weights: body.weights as StatsResult['weights'] } : {}),
    N: Math.round(remote.N),
    'W.Median': remote['W.Median'],
    Range_lower: remote.Range_lower,
    Range_upper: remote.Range_upper,
    source: 'remote',
  };
}
