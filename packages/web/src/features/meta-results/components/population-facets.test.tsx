import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PopulationFacets } from './population-facets';

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

const FACETS = {
  analyte: { id: 7, display_name: 'ALT' },
  datasets: 6,
  facets: [
    {
      facet: 'sex',
      label: 'Sex',
      values: [
        { value: 'males', label: 'Males', datasets: 3 },
        { value: 'females', label: 'Females', datasets: 2 },
        { value: 'mixed', label: 'Mixed', datasets: 0 },
      ],
      unknown: 1,
    },
    { facet: 'disease', label: 'Disease', values: [], unknown: 6 },
  ],
};

const estimate = {
  name: 'ALT - Serum - CVI',
  var_type: ':cvi',
  matrix: 'Serum',
  matrix_id: 1,
  matrix_consolidation_id: null,
  median: 21.4,
  lower: 18.2,
  upper: 24.9,
  limits: 'range',
  method: 'range',
  seed: null,
  number_used: 4,
  evidence: { class: 'range', label: 'a range (too few studies for a confidence interval)' },
  note: null,
  datasets: [
    {
      bv_specification_id: 11,
      reference_id: 3,
      study_id: '3',
      grade: 'A',
      cv: 21.4,
      ci_lower: 18,
      ci_upper: 25,
      weight: 1,
    },
  ],
};

const answerOf = (selection: Record<string, string[]>) => ({
  analyte: { id: 7, display_name: 'ALT' },
  as_of: null,
  headline: null,
  metas: [],
  facets: {
    selection,
    key: 'sex=females,males',
    permalink: '/analytes/7?facet.sex=females,males',
    datasets: 5,
    note: null,
    metas: [estimate],
    comparisons: [
      {
        facet: 'sex',
        var_type: ':cvi',
        matrix: 'Serum',
        a: { value: 'females', label: 'Females', median: 9.3, number_used: 2 },
        b: { value: 'males', label: 'Males', median: 21.4, number_used: 2 },
        method: 'Mixed-effects subgroup test on ln CV (REML τ²; metafor QM; Borenstein et al. 2009, ch. 19)',
        q: 9.1,
        df: 1,
        p: 0.0026,
        tau2: 0,
        sentence: "Females' CVI of ALT is lower than Males': 9.3 % vs 21.4 %, p = 0.003.",
      },
    ],
  },
});

afterEach(() => vi.unstubAllGlobals());

function renderAt(url: string, asOf?: string) {
  const fetch = vi.fn((input: string) =>
    Promise.resolve(
      json(
        input.includes('/facets')
          ? FACETS
          : answerOf({ sex: new URL(input, 'http://x').searchParams.get('facet.sex')!.split(',') }),
      ),
    ),
  );
  vi.stubGlobal('fetch', fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/analytes/:id',
        element: (
          <PopulationFacets
            measurandId={7}
            measurandName="ALT"
            globalMetas={[]}
            titleOf={() => 'A study'}
            asOf={asOf}
            release={null}
            databaseCitation="The EFLM Biological Variation Database. [time of access]."
          />
        ),
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { fetch, router };
}

describe('PopulationFacets (issue 47, decision 097)', () => {
  it('shows the counts before a choice and asks for no estimate until one is made', async () => {
    const { fetch } = renderAt('/analytes/7');
    expect((await screen.findByRole<HTMLInputElement>('checkbox', { name: /^Males/ })).checked).toBe(false);
    expect(screen.getByText('(3 datasets)')).toBeTruthy();
    // A value no dataset has is not offered; a facet no dataset records is named once.
    expect(screen.queryByRole('checkbox', { name: /^Mixed/ })).toBeNull();
    expect(screen.getByText('No dataset records: Disease.')).toBeTruthy();
    expect(fetch.mock.calls.map(([u]) => u)).toEqual(['/api/v1/measurands/7/facets']);
  });

  it('keeps the choice in the URL and shows the estimate, N, the limits and the test with its p-value', async () => {
    const { fetch, router } = renderAt('/analytes/7?matrix=Serum');
    await userEvent.click(await screen.findByRole('checkbox', { name: /^Males/ }));
    await userEvent.click(screen.getByRole('checkbox', { name: /^Females/ }));
    expect(router.state.location.search).toBe('?matrix=Serum&facet.sex=females%2Cmales');
    const box = await screen.findByTestId('population-estimate');
    expect(within(box).getByTestId('population-name').textContent).toContain('Sex: Females, Males');
    expect((await within(box).findByTestId('population-median')).textContent).toContain('21.4');
    expect(within(box).getByTestId('population-CVI').textContent).toContain('21.4 (18.2–24.9, range)');
    // What kind of evidence the value is (issue 47.4).
    expect(within(box).getByTestId('population-evidence').textContent).toBe(
      'Evidence: a range (too few studies for a confidence interval)',
    );
    expect(within(box).getByTestId('population-sentence').textContent).toContain(
      "Females' CVI of ALT is lower than Males': 9.3 % vs 21.4 %, p = 0.003.",
    );
    expect(within(box).getByText(/2 vs 2 studies; Mixed-effects subgroup test on ln CV/)).toBeTruthy();
    expect(within(box).getByTestId('population-permalink').getAttribute('href')).toBe(
      '/analytes/7?facet.sex=females,males',
    );
    expect(fetch.mock.calls.map(([u]) => u)).toContain(
      '/api/v1/measurands/7/metas?facet.sex=females%2Cmales',
    );
  });

  it('opens on a permalink with its choice, and asks for the pinned moment when the page is pinned', async () => {
    const { fetch } = renderAt('/analytes/7?facet.sex=males', '2026-11-01T00:00:00.000Z');
    expect((await screen.findByRole<HTMLInputElement>('checkbox', { name: /^Males/ })).checked).toBe(true);
    expect((await screen.findByTestId('population-permalink')).getAttribute('href')).toBe(
      `/analytes/7?facet.sex=males&as_of=${encodeURIComponent('2026-11-01T00:00:00.000Z')}`,
    );
    expect(fetch.mock.calls.map(([u]) => u)).toContain(
      `/api/v1/measurands/7/metas?facet.sex=males&as_of=${encodeURIComponent('2026-11-01T00:00:00.000Z')}`,
    );
  });

  it('cites the population: its facets in the citation and its permalink', async () => {
    renderAt('/analytes/7?facet.sex=females,males');
    await userEvent.click(await screen.findByRole('button', { name: /Cite this estimate: Serum CVI/ }));
    const text = await screen.findByTestId('citation-text');
    expect((text as HTMLTextAreaElement).value).toContain('ALT (Serum, population Sex: Females, Males)');
    expect((text as HTMLTextAreaElement).value).toContain('/analytes/7?facet.sex=females,males');
  });
});
