import type { Job } from '@bvdb/contract';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobProgressDisplay } from './job-progress';
import { jobPercent } from '../use-job-progress';

const job = (over: Partial<Job>): Job => ({
  id: 7,
  jid: 'x',
  name: 'Calculating Meta-Analysis',
  queue: 'meta-recompute',
  class_name: 'MetaCalculationJob',
  started_at: null,
  finished_at: null,
  status: 'working',
  progress_stage: null,
  progress_current: 0,
  progress_max: 3,
  error: null,
  created_at: '2025-01-01T00:00:00.000Z',
  ...over,
});

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchStub: ReturnType<typeof vi.fn<typeof fetch>>;
beforeEach(() => {
  vi.useFakeTimers();
  fetchStub = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchStub);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const bar = () => screen.getByRole('progressbar');

describe('jobPercent', () => {
  it.each([
    [0, 3, 'working', 0],
    [1, 3, 'working', 33],
    [2, 3, 'working', 67],
    [1, 8, 'working', 13],
    [5, 3, 'working', 100],
    [0, 0, 'queued', 0],
    [1, 3, 'complete', 100],
    [0, 0, 'complete', 100],
  ] as const)('%i of %i (%s) → %i percent', (current, max, status, percent) => {
    expect(jobPercent({ progress_current: current, progress_max: max, status })).toBe(percent);
  });
});

describe('JobProgressDisplay', () => {
  it('polls GET /api/queue_jobs/{id} every 1000 ms with a JSON content type, rounding the percentage', async () => {
    fetchStub
      .mockResolvedValueOnce(answer(200, { code: 'success', data: job({ progress_current: 1 }) }))
      .mockResolvedValueOnce(answer(200, { code: 'success', data: job({ progress_current: 2 }) }));
    render(<JobProgressDisplay jobId={7} label="Meta" />);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(fetchStub).toHaveBeenCalledTimes(1);
    const [url, init] = fetchStub.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/queue_jobs/7');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(bar().getAttribute('aria-valuenow')).toBe('33');
    await act(() => vi.advanceTimersByTimeAsync(990));
    expect(fetchStub).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(fetchStub).toHaveBeenCalledTimes(2);
    expect(bar().getAttribute('aria-valuenow')).toBe('67');
    expect(bar().textContent).toBe('67%');
  });

  it('status "complete" shows 100% and stops polling', async () => {
    fetchStub.mockResolvedValue(
      answer(200, {
        code: 'success',
        data: job({ status: 'complete', progress_current: 1, progress_max: 3 }),
      }),
    );
    render(<JobProgressDisplay jobId={7} label="Meta" />);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(bar().getAttribute('aria-valuenow')).toBe('100');
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(fetchStub).toHaveBeenCalledTimes(1);
    expect(screen.getByText('complete')).toBeTruthy();
  });

  it('a non-200 answer stops polling and shows the error text of the response', async () => {
    fetchStub
      .mockResolvedValueOnce(answer(200, { code: 'success', data: job({ progress_current: 1 }) }))
      .mockResolvedValueOnce(
        answer(404, { error: 'Not Found', message: 'Job 7 not found', statusCode: 404 }),
      );
    render(<JobProgressDisplay jobId={7} label="Meta" />);
    await act(() => vi.advanceTimersByTimeAsync(1001));
    expect(screen.getByRole('alert').textContent).toContain('Job 7 not found');
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(fetchStub).toHaveBeenCalledTimes(2);
  });

  it('aborts a lookup after 8000 ms and tries again a second later', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fetchStub.mockImplementationOnce(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) =>
          init!.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    fetchStub.mockResolvedValue(answer(200, { code: 'success', data: job({ progress_current: 3 }) }));
    render(<JobProgressDisplay jobId={7} label="Meta" />);
    await act(() => vi.advanceTimersByTimeAsync(7999));
    expect(fetchStub).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    const signal = (fetchStub.mock.calls[0] as [string, RequestInit])[1].signal!;
    expect(signal.aborted).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(fetchStub).toHaveBeenCalledTimes(2);
    expect(bar().getAttribute('aria-valuenow')).toBe('100');
    log.mockRestore();
  });
});
