import type { ImportSummary } from '@bvdb/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionQuery } from '../../../lib/session';
import { DatabaseImportForm } from './database-import-form';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const summary = (over: Partial<ImportSummary> = {}): ImportSummary => ({
  format_version: 1,
  scope: 'all',
  exported_at: '2026-11-25T10:00:00.000Z',
  tables: [{ name: 'bv_specifications', rows: 120, overwritten: [] }],
  existing: { analytes: 59, references: 30, bv_specifications: 140 },
  deletes: [
    { name: 'bv_specifications', rows: 140 },
    { name: 'appraisal_rounds', rows: 1 },
  ],
  written: false,
  import_ms: 1200,
  ...over,
});

function renderForm() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(sessionQuery.queryKey, { user: null, user_id: 1, csrf_token: 't' });
  render(
    <QueryClientProvider client={client}>
      <DatabaseImportForm />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('DatabaseImportForm', () => {
  it('shows what a replace deletes, table by table, before the user confirms; then names the backup', async () => {
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(json(summary()))
      .mockResolvedValueOnce(
        json(
          summary({
            written: true,
            backup_file: 'bvdb-before-replace-2026-11-25T21-00-00.000Z.json',
            returned_to_final: 0,
          }),
        ),
      );
    vi.stubGlobal('fetch', fetch);
    renderForm();
    await userEvent.upload(
      screen.getByLabelText('Database file (.json)'),
      new File(['{}'], 'bv_database.json', { type: 'application/json' }),
    );
    await userEvent.click(screen.getByLabelText(/Replace the tables the file carries/));
    await userEvent.click(screen.getByLabelText(/Also empty the tables the file leaves out/));
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));

    const deletes = await screen.findByRole('list', { name: /The import deletes/ });
    expect(within(deletes).getByText('bv_specifications: 140 rows')).toBeTruthy();
    expect(within(deletes).getByText('appraisal_rounds: 1 row')).toBeTruthy();
    expect(screen.getByText(/saved first as a complete backup/)).toBeTruthy();
    const [url] = fetch.mock.calls[0] as unknown as [string];
    expect(url).toContain('mode=replace');
    expect(url).toContain('clear_absent=1');

    await userEvent.click(screen.getByRole('button', { name: 'Confirm import' }));
    expect(await screen.findByText(/bvdb-before-replace-2026-11-25T21-00-00\.000Z\.json/)).toBeTruthy();
  }, 20_000);

  it('asks again for what the import does only when named: own account, submitted appraisals', async () => {
    const consequences = [
      { code: 'delete_own_account' as const, message: 'The import removes your own account (a@b.org).' },
      { code: 'delete_submitted_appraisals' as const, message: 'The import deletes 2 submitted appraisals.' },
    ];
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(json(summary({ consequences })))
      .mockResolvedValueOnce(json(summary({ written: true, consequences })));
    vi.stubGlobal('fetch', fetch);
    renderForm();
    await userEvent.upload(
      screen.getByLabelText('Database file (.json)'),
      new File(['{}'], 'bv_database.json', { type: 'application/json' }),
    );
    await userEvent.click(screen.getByLabelText(/Replace the tables the file carries/));
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const confirm = await screen.findByRole('button', { name: 'Confirm import' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByLabelText(/removes your own account .* Import anyway/));
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByLabelText(/deletes 2 submitted appraisals\. Import anyway/));
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(confirm);
    await screen.findByRole('alert');
    const [previewUrl] = fetch.mock.calls[0] as unknown as [string];
    const [importUrl] = fetch.mock.calls[1] as unknown as [string];
    expect(previewUrl).not.toContain('confirm=');
    expect(decodeURIComponent(importUrl)).toContain('confirm=delete_own_account,delete_submitted_appraisals');
  }, 20_000);

  it('says a merge deletes nothing', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(json(summary({ deletes: [] }))));
    renderForm();
    await userEvent.upload(
      screen.getByLabelText('Database file (.json)'),
      new File(['{}'], 'bv_database.json', { type: 'application/json' }),
    );
    await userEvent.click(screen.getByLabelText(/Merge/));
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText('The import deletes no rows.')).toBeTruthy();
    expect(screen.queryByLabelText(/Also empty the tables the file leaves out/)).toBeNull();
  }, 20_000);
});
