import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setApiFetch } from '../../../lib/api-client';
import { RcvApplication } from './rcv-application';

afterEach(() => {
  cleanup();
  setApiFetch((url, init) => fetch(url, init));
});

const headlineCvi = (median: number) => ({
  meta_id: 1,
  median,
  lower: median - 1,
  upper: median + 1,
  limits: '95 % CI',
  number_used: 3,
  updated_at: '2026-01-01T00:00:00.000Z',
  estimate_id: 1,
  version: 1,
});

/** The server's answer to `/api/v1/measurands?code=`, as the contract describes it. */
function answer(url: string): Response {
  const code = new URL(url, 'http://x').searchParams.get('code');
  if (code !== '2345-7')
    return Response.json(
      { statusCode: 404, error: 'Not Found', message: `No measurand has the code ${code}` },
      { status: 404 },
    );
  return Response.json({
    meta: {
      total: 1,
      limit: 1,
      offset: 0,
      next_offset: null,
      code: {
        system: 'http://loinc.org',
        code: '2345-7',
        display: null,
        measurand_id: 7,
        matrix_id: 2,
        matrix: 'Plasma',
        ucum_unit: 'mg/dL',
      },
    },
    data: [
      {
        id: 7,
        display_name: 'Glucose',
        full_name: null,
        alternate_names: [],
        headline: {
          matrix_id: 2,
          matrix_consolidation_id: null,
          matrix: 'Plasma',
          cvi: headlineCvi(5.63),
          cvg: null,
        },
        updated_at: '2026-01-01T00:00:00.000Z',
        codes: [],
      },
    ],
  });
}

function renderPage() {
  const asked: string[] = [];
  setApiFetch(async (url) => {
    asked.push(url);
    return answer(url);
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RcvApplication titled={false} findByCode />
    </QueryClientProvider>,
  );
  return asked;
}

const findCode = (code: string) => {
  fireEvent.change(screen.getByLabelText('Test code (LOINC, NPU; optional)'), { target: { value: code } });
  fireEvent.click(screen.getByRole('button', { name: 'Find CVI' }));
};

describe('the RCV tool takes a laboratory test code (issue 45.7)', () => {
  it('fills in the CVI of the measurand the code names, and says which and from where', async () => {
    const asked = renderPage();
    findCode('2345-7');
    await waitFor(() =>
      expect(screen.getByTestId('cvi-by-code').textContent).toBe(
        'LOINC 2345-7 is Glucose: CVI 5.63% from its meta-analysis in Plasma, filled in below.',
      ),
    );
    expect(asked[0]).toContain('/api/v1/measurands?code=2345-7');
    expect(screen.getByLabelText<HTMLInputElement>(/^CVI/).value).toBe('5.6');
    // The verdict is computed from the estimate itself, not from the box's rounded 5.6.
    fireEvent.change(screen.getByLabelText('CVA (%)'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('1st Result'), { target: { value: '5' } });
    fireEvent.change(screen.getByLabelText('2nd Result'), { target: { value: '6' } });
    expect(screen.getByTestId('cvi-exact').textContent).toMatch(/unrounded \(5\.63\)/);
    expect(screen.getByTestId('rcv-verdict').textContent).toMatch(/^With CVI 5\.63%, CVA 2\.00%/);
  });

  it('says when no measurand has the code and fills in nothing', async () => {
    renderPage();
    findCode('9999-9');
    await waitFor(() =>
      expect(screen.getByTestId('cvi-by-code').textContent).toBe('No measurand has the code 9999-9'),
    );
    expect(screen.getByLabelText<HTMLInputElement>(/^CVI/).value).toBe('');
  });
});
