import type { Job } from '@bvdb/contract';
import { useEffect, useState } from 'react';
import { fetchQueueJob, JobLookupError } from './api/get-queue-job';

/** Spec section 9: poll every 1000 ms, each lookup aborted after 8000 ms. */
export const POLL_INTERVAL_MS = 1000;
export const LOOKUP_TIMEOUT_MS = 8000;

/** progress_current / progress_max as a rounded percentage in 0…100; "complete" is 100. */
export function jobPercent(job: Pick<Job, 'status' | 'progress_current' | 'progress_max'> | null): number {
  if (!job) return 0;
  if (job.status === 'complete') return 100;
  if (job.progress_max <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((job.progress_current / job.progress_max) * 100)));
}

export interface JobProgress {
  job: Job | null;
  percent: number;
  /** The error text of a non-200 lookup, or of a failed job. */
  error: string | null;
  polling: boolean;
}

type Fetcher = (id: number, signal: AbortSignal) => Promise<Job>;

/**
 * Follows one job: looks it up at once and then every `intervalMs` until it is complete or failed,
 * or a lookup answers other than 200 (spec section 4). A timed-out or network-failed lookup is only
 * logged (spec section 8) and the next one is tried.
 */
export function useJobProgress(
  jobId: number | null,
  opts: { intervalMs?: number; timeoutMs?: number; fetcher?: Fetcher } = {},
): JobProgress {
  const { intervalMs = POLL_INTERVAL_MS, timeoutMs = LOOKUP_TIMEOUT_MS, fetcher = fetchQueueJob } = opts;
  const [state, setState] = useState<Omit<JobProgress, 'percent'>>({
    job: null,
    error: null,
    polling: jobId !== null,
  });

  useEffect(() => {
    if (jobId === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    setState({ job: null, error: null, polling: true });

    const tick = async () => {
      controller = new AbortController();
      const timeout = setTimeout(() => controller?.abort(), timeoutMs);
      try {
        const job = await fetcher(jobId, controller.signal);
        if (stopped) return;
        const finished = job.status === 'complete' || job.status === 'failed';
        setState({
          job,
          error: job.status === 'failed' ? (job.error ?? 'The job failed') : null,
          polling: !finished,
        });
        if (finished) return;
      } catch (err) {
        if (stopped) return;
        if (err instanceof JobLookupError) {
          setState((s) => ({ ...s, error: err.message, polling: false }));
          return;
        }
        console.error('Job lookup failed', err);
      } finally {
        clearTimeout(timeout);
      }
      if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
    };
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
    };
  }, [jobId, intervalMs, timeoutMs, fetcher]);

  return { ...state, percent: jobPercent(state.job) };
}
