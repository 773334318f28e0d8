import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionQuery } from '../lib/session';
import { AppraisalPage } from './routes/appraisal-page';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderAt(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(sessionQuery.queryKey, {
    user: { id: 7, email: 'assessor@example.org', name: null, role: 'assessor' },
    user_id: 7,
    csrf_token: 't',
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/appraisals/:id" element={<AppraisalPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** A loaded machine renders slowly: wait longer than the default second for the answer. */
const WAIT = { timeout: 10_000 };

afterEach(() => vi.unstubAllGlobals());

describe('AppraisalPage', () => {
  it('shows "Page not found" for an appraisal id that does not exist (the API answers 404)', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValue(
        json({ statusCode: 404, error: 'Not Found', message: 'Appraisal 999999 not found' }, 404),
      );
    vi.stubGlobal('fetch', fetch);
    renderAt('/appraisals/999999');
    expect(await screen.findByRole('heading', { name: 'Page not found' }, WAIT)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'BIVAC appraisal' })).toBeNull();
    expect(String(fetch.mock.calls[0]![0])).toContain('/api/appraisals/999999');
  });

  it('shows "Page not found" for an id no appraisal can have, without asking the API', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderAt('/appraisals/abc');
    expect(await screen.findByRole('heading', { name: 'Page not found' }, WAIT)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('keeps the form’s own message for other errors (an appraisal assigned to someone else: 403)', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValue(
          json(
            { statusCode: 403, error: 'Forbidden', message: 'This appraisal is assigned to someone else.' },
            403,
          ),
        ),
    );
    renderAt('/appraisals/5');
    expect(await screen.findByText(/This appraisal is assigned to someone else\./, {}, WAIT)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'BIVAC appraisal' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Page not found' })).toBeNull();
  });
});
