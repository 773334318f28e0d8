import type { MetaRecord, Session } from '@bvdb/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { sessionQuery } from '../lib/session';
import { MetaSummary } from './meta-summary';

const record = (varType: ':cvi' | ':cvg'): MetaRecord => ({
  id: varType === ':cvi' ? 1 : 2,
  name: `Glucose - Plasma - ${varType}`,
  analyte_id: 1,
  var_type: varType,
  median: 5.6,
  lower: 4.9,
  upper: 6.3,
  number_used: 3,
  comments: null,
  display: true,
  matrix: 'Plasma',
  matrix_id: 1,
  matrix_consolidation_id: null,
  method: 'range',
  limits: 'range',
  seed: null,
  references_array: '[1, 2, 3]',
  datasets: [],
  // The value last changed in March; the engine ran again in November without changing it.
  updated_at: '2026-03-14T10:00:00.000Z',
  computed_at: '2026-11-23T02:00:00.000Z',
});

function show(session: Session) {
  const client = new QueryClient();
  client.setQueryData(sessionQuery.queryKey, session);
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <MetaSummary metas={[record(':cvi'), record(':cvg')]} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('Date Updated is when the estimate last changed', () => {
  it('a visitor sees the date the value changed, not the recompute date', () => {
    show({ user: null, user_id: null, csrf_token: null });
    const cell = screen.getByTestId('meta-row-Plasma-cvi').querySelectorAll('td')[5]!;
    expect(cell.textContent).toBe('14/3/2026');
    expect(screen.queryByTestId('meta-computed-at')).toBeNull();
  });

  it('a signed-in curator also sees when the engine last recomputed it', () => {
    show({
      user: { id: 1, email: 'a@example.org', name: null, role: 'curator' },
      user_id: 1,
      csrf_token: 't',
    });
    const cell = screen.getByTestId('meta-row-Plasma-cvi').querySelectorAll('td')[5]!;
    expect(cell.textContent).toBe('14/3/2026recomputed 23/11/2026');
  });

  it('a signed-in assessor sees what a visitor sees (no administration)', () => {
    show({
      user: { id: 2, email: 'b@example.org', name: null, role: 'assessor' },
      user_id: 2,
      csrf_token: 't',
    });
    const cell = screen.getByTestId('meta-row-Plasma-cvi').querySelectorAll('td')[5]!;
    expect(cell.textContent).toBe('14/3/2026');
  });
});
