import type { EstimateVersion } from '@bvdb/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { causeText, EstimateHistory } from './estimate-history';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

const version = (over: Partial<EstimateVersion>): EstimateVersion => ({
  version: 1,
  withdrawn: false,
  median: 5.35,
  lower: 5.1,
  upper: 5.6,
  limits: 'range',
  number_used: 2,
  datasets: [
    { id: 170, value: 5.1 },
    { id: 172, value: 5.6 },
  ],
  computed_at: '2026-11-20T10:00:00.000Z',
  cause: { kind: 'initial', role: 'system' },
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

describe('EstimateHistory (issue 29.5)', () => {
  it('reads the versions when opened: a plot and the changes with the inputs’ difference and the cause', async () => {
    const fetch = vi.fn().mockResolvedValue(
      json({
        estimate: { id: 12, measurand_id: 1, matrix_id: 1, matrix_consolidation_id: null, var_type: ':cvi' },
        meta: { total: 2, limit: 1000, offset: 0, next_offset: null },
        data: [
          version({
            version: 2,
            median: 5.6,
            number_used: 3,
            datasets: [
              { id: 170, value: 5.1 },
              { id: 171, value: 5.6 },
              { id: 172, value: 5.6 },
            ],
            computed_at: '2026-11-27T08:00:00.000Z',
            cause: { kind: 'dataset', dataset_id: 171, role: 'curator' },
          }),
          version({}),
        ],
      }),
    );
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <EstimateHistory estimateId={12} version={2} label="Serum CVI" labelOf={(id) => `DEMO-${id}`} />
      </QueryClientProvider>,
    );
    expect(fetch).not.toHaveBeenCalled(); // nothing read until opened
    await userEvent.click(screen.getByText('Serum CVI · version 2'));
    const latest = await screen.findByTestId('history-version-2');
    expect(String(fetch.mock.calls[0]![0])).toContain('/api/v1/estimates/12/history');
    expect(latest.textContent).toContain('5.6% (5.1–5.6, range), N = 3');
    expect(latest.textContent).toContain('DEMO-171 added; N 2 → 3; median 5.4 → 5.6');
    expect(latest.textContent).toContain('a dataset changed (DEMO-171), by a curator');
    expect(within(screen.getByTestId('history-version-1')).getByText(/First value; N 2/)).toBeTruthy();
    expect(screen.getByTestId('history-plot').getAttribute('aria-label')).toMatch(
      /Serum CVI over time: 2 values/,
    );
  });

  it('names an administrator and an assessor in words (issue 42.9)', () => {
    const v = (role: string) =>
      ({ cause: { kind: 'dataset', dataset_id: 1, role } }) as unknown as EstimateVersion;
    expect(causeText(v('admin'), () => 'D1')).toBe('a dataset changed (D1), by an administrator');
    expect(causeText(v('assessor'), () => 'D1')).toBe('a dataset changed (D1), by an assessor');
    expect(causeText(v('system'), () => 'D1')).toBe('a dataset changed (D1), by the system');
  });
});
