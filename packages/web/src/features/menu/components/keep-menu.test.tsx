import type { KeptMenu, MenuResponse, Session } from '@bvdb/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionQuery } from '../../../lib/session';
import { KeepMenu } from './keep-menu';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ATHLETES: NonNullable<MenuResponse['population']> = {
  selection: { state: ['athletes'], sex: ['males'] },
  key: 'sex=males&state=athletes',
  label: 'males, athletes',
  sentence: 'Population: males, athletes — recomputed per measurand from its matching studies',
};

const KEPT: KeptMenu = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  url: '/applications/menu/AAAAAAAAAAAAAAAAAAAAAA',
  name: null,
  owned: false,
  mine: false,
  tests: 1,
  level: 'desirable',
  probability: 0.95,
  kept_at: '2026-10-27T09:00:00.000Z',
  opened_at: '2026-10-27T09:00:00.000Z',
  created_at: '2026-10-27T09:00:00.000Z',
  updated_at: '2026-10-27T09:00:00.000Z',
  version: 1,
  population: ATHLETES,
  expires_at: '2027-11-27T09:00:00.000Z',
};

const VISITOR: Session = { user: null, user_id: null, csrf_token: 'token-1' };

function renderKeep(population?: MenuResponse['population']) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(sessionQuery.queryKey, VISITOR);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <KeepMenu
          tests={[{ name: 'Cholesterol (total)', cva: 2 }]}
          choices={{ level: 'desirable', probability: 0.95 }}
          population={population}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('KeepMenu: a menu judged for a population is kept for it (decision 101)', () => {
  it('sends the population the sheet was judged for as facet.* and says the menu is kept for it', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => json(KEPT, 201));
    vi.stubGlobal('fetch', fetch);
    renderKeep(ATHLETES);
    expect(screen.getByText(/Kept for the population males, athletes\./)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Keep this menu' }));
    expect(await screen.findByText(/Kept for the population males, athletes\. Open this link/)).toBeTruthy();
    expect(screen.getByText(/every test judged for this population/)).toBeTruthy();
    const [, init] = fetch.mock.calls.find(([u]) => String(u).endsWith('/api/v1/menus'))!;
    expect(JSON.parse(init?.body as string)).toEqual({
      tests: [{ name: 'Cholesterol (total)', cva: 2 }],
      level: 'desirable',
      probability: 0.95,
      'facet.state': ['athletes'],
      'facet.sex': ['males'],
    });
  });

  it('sends no facet for a sheet of the global estimates', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) =>
      json({ ...KEPT, population: null }, 201),
    );
    vi.stubGlobal('fetch', fetch);
    renderKeep(undefined);
    await userEvent.click(screen.getByRole('button', { name: 'Keep this menu' }));
    expect(await screen.findByText(/Open this link again next month/)).toBeTruthy();
    expect(screen.queryByText(/population/)).toBeNull();
    const [, init] = fetch.mock.calls.find(([u]) => String(u).endsWith('/api/v1/menus'))!;
    expect(Object.keys(JSON.parse(init?.body as string) as object)).toEqual([
      'tests',
      'level',
      'probability',
    ]);
  });
});
