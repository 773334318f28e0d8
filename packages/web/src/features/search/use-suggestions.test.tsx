import type { Suggestion } from '@bvdb/contract';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NO_SUGGESTIONS, SUGGESTIONS_FAILED, useSuggestions } from './use-suggestions';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const s = (id: number, display_name: string): Suggestion => ({ id, display_name });

describe('useSuggestions', () => {
  it('makes no request for an empty query', async () => {
    const fetcher = vi.fn<(q: string, signal: AbortSignal) => Promise<Suggestion[]>>();
    renderHook(() => useSuggestions('  ', fetcher, true, 200));
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('debounces typing into one request', async () => {
    const fetcher = vi.fn((_q: string) => Promise.resolve([s(1, 'Creatinine')]));
    const { rerender, result } = renderHook(({ q }) => useSuggestions(q, fetcher, true, 200), {
      initialProps: { q: 'c' },
    });
    rerender({ q: 'cr' });
    rerender({ q: 'cre' });
    await act(() => vi.advanceTimersByTimeAsync(250));
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(fetcher.mock.calls[0]![0]).toBe('cre');
    expect(result.current.suggestions).toEqual([s(1, 'Creatinine')]);
  });

  it('never lets a slow, stale answer overwrite a newer one', async () => {
    const resolvers: Record<string, (v: Suggestion[]) => void> = {};
    const fetcher = vi.fn((q: string) => new Promise<Suggestion[]>((resolve) => (resolvers[q] = resolve)));
    const { rerender, result } = renderHook(({ q }) => useSuggestions(q, fetcher, true, 0), {
      initialProps: { q: 'so' },
    });
    await act(() => vi.advanceTimersByTimeAsync(1));
    rerender({ q: 'sod' });
    await act(() => vi.advanceTimersByTimeAsync(1));
    await act(async () => resolvers.sod!([s(2, 'Sodium')]));
    await act(async () => resolvers.so!([s(9, 'Stale answer')]));
    expect(result.current.suggestions).toEqual([s(2, 'Sodium')]);
  });

  it('says when nothing matches and when the request fails', async () => {
    const { rerender, result } = renderHook(({ f }) => useSuggestions('zz', f, true, 0), {
      initialProps: { f: (_q: string, _s: AbortSignal) => Promise.resolve([] as Suggestion[]) },
    });
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current.message).toBe(NO_SUGGESTIONS);
    rerender({ f: () => Promise.reject(new TypeError('Failed to fetch')) });
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current.message).toBe(SUGGESTIONS_FAILED);
    expect(result.current.suggestions).toEqual([]);
  });
});
