import type { KeptMenu, Session } from '@bvdb/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionQuery } from '../../../lib/session';
import { SaveToMyMenus } from './save-to-my-menus';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const LINK_MENU: KeptMenu = {
  id: 'AAAAAAAAAAAAAAAAAAAAAA',
  url: '/applications/menu/AAAAAAAAAAAAAAAAAAAAAA',
  name: null,
  owned: false,
  mine: false,
  tests: 3,
  level: 'desirable',
  probability: 0.95,
  kept_at: '2026-10-27T09:00:00.000Z',
  opened_at: '2026-10-27T09:00:00.000Z',
  created_at: '2026-10-27T09:00:00.000Z',
  updated_at: '2026-10-27T09:00:00.000Z',
  version: 1,
  population: null,
  expires_at: '2027-11-27T09:00:00.000Z',
};

const SIGNED_IN: Session = {
  user: { id: 5, email: 'lab@example.org', name: 'Lab', role: 'curator' },
  user_id: 5,
  csrf_token: 'token-1',
};

function renderSave(menu: KeptMenu, session: Session) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(sessionQuery.queryKey, session);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <SaveToMyMenus menu={menu} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('SaveToMyMenus: a link menu saved under one’s own name', () => {
  it('posts the name to the copies of this menu with the CSRF token and says where the copy is', async () => {
    const copy: KeptMenu = {
      ...LINK_MENU,
      id: 'BBBBBBBBBBBBBBBBBBBBBB',
      url: '/applications/menu/BBBBBBBBBBBBBBBBBBBBBB',
      name: 'Chemistry',
      owned: true,
      mine: true,
      expires_at: null,
    };
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => json(copy, 201));
    vi.stubGlobal('fetch', fetch);
    renderSave(LINK_MENU, SIGNED_IN);
    const save = screen.getByRole('button', { name: 'Save to my menus' });
    // No name, nothing to save.
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await userEvent.type(screen.getByLabelText('Name'), '  Chemistry ');
    await userEvent.click(save);
    expect(await screen.findByText(/Saved as “Chemistry”/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open your menu' }).getAttribute('href')).toBe(
      '/applications/menu/BBBBBBBBBBBBBBBBBBBBBB',
    );
    expect(screen.getByRole('link', { name: 'My menus' }).getAttribute('href')).toBe(
      '/applications/menu#my-menus',
    );
    const [url, init] = fetch.mock.calls.find(([u]) => String(u).includes('/copies'))!;
    expect(String(url)).toContain('/api/v1/menus/AAAAAAAAAAAAAAAAAAAAAA/copies');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(init?.body as string)).toEqual({ name: 'Chemistry' });
    expect(new Headers(init?.headers).get('x-csrf-token')).toBe('token-1');
  });

  it('shows the server’s message when the save is refused', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 'not_found', message: 'No kept menu has this link' }, 404)),
    );
    renderSave(LINK_MENU, SIGNED_IN);
    await userEvent.type(screen.getByLabelText('Name'), 'Mine');
    await userEvent.click(screen.getByRole('button', { name: 'Save to my menus' }));
    expect((await screen.findByRole('alert')).textContent).toContain('No kept menu has this link');
  });

  it('asks a visitor to sign in', () => {
    renderSave(LINK_MENU, { user: null, user_id: null, csrf_token: null });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/users/sign_in');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers nothing to the menu’s owner', () => {
    renderSave({ ...LINK_MENU, owned: true, mine: true, name: 'Mine' }, SIGNED_IN);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
