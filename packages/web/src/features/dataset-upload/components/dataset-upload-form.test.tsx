import type { UploadPreview } from '@bvdb/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionQuery } from '../../../lib/session';
import { DatasetUploadForm } from './dataset-upload-form';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const row = (n: number, errors: UploadPreview['rows'][number]['errors'] = []) => ({
  row: n,
  unique_identifier: `U-${n}`,
  analyte_id: 7,
  measurand: 'Sodium',
  matrix: n === 3 ? 'Serumm' : 'Serum',
  reference: '1: A study',
  estimates_of_cvi: 0.6,
  estimates_of_cvg: null,
  errors,
});

function renderForm() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(sessionQuery.queryKey, { user: null, user_id: 1, csrf_token: 't' });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DatasetUploadForm />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const choose = () =>
  userEvent.upload(
    screen.getByLabelText('Filled template (.xlsx or .csv)'),
    new File(['x'], 'paper.xlsx', { type: 'application/octet-stream' }),
  );

afterEach(() => vi.unstubAllGlobals());

describe('DatasetUploadForm', () => {
  it('lists each row with its errors by cell, and offers no save while one is wrong', async () => {
    const preview: UploadPreview = {
      file_name: 'paper.xlsx',
      rows: [
        row(2),
        row(3, [
          {
            row: 3,
            column: 'Matrix',
            field: 'matrix_id',
            message: 'Unknown matrix "Serumm": choose one from the list.',
          },
        ]),
      ],
      problems: [],
      valid: false,
      error_count: 1,
      measurands: 1,
    };
    const fetch = vi.fn(async () => json(preview));
    vi.stubGlobal('fetch', fetch);
    renderForm();
    await choose();
    await userEvent.click(screen.getByRole('button', { name: 'Check the file' }));
    expect(await screen.findByText(/1 problem in 1 of 2 rows/)).toBeTruthy();
    const bad = screen.getByRole('row', { name: /U-3/ });
    expect(within(bad).getByText(/Unknown matrix "Serumm"/)).toBeTruthy();
    expect(within(screen.getByRole('row', { name: /U-2/ })).getByText('OK')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Save/ })).toBeNull();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/bv_specifications/upload/preview');
    expect(init.body).toBeInstanceOf(FormData);
  }, 20_000); // role queries over a table: slow on a loaded machine

  it('saves a valid file and links the measurands touched', async () => {
    const preview: UploadPreview = {
      file_name: 'paper.xlsx',
      rows: [row(2)],
      problems: [],
      valid: true,
      error_count: 0,
      measurands: 1,
    };
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(json(preview))
      .mockResolvedValueOnce(
        json({ created: [{ row: 2, id: 50, unique_identifier: 'U-2' }], measurands: [7] }, 201),
      );
    vi.stubGlobal('fetch', fetch);
    renderForm();
    await choose();
    await userEvent.click(screen.getByRole('button', { name: 'Check the file' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Save 1 dataset' }));
    expect(await screen.findByText(/Saved 1 dataset\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sodium' }).getAttribute('href')).toBe('/analytes/7');
  }, 20_000);
});
