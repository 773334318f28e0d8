import type { MenuResponse, MenuTestResult } from '@bvdb/contract';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { MenuSheet } from './menu-sheet';

const range = (lower: number, upper: number) => ({ lower, upper, limits: '95 % CI' as const });
const spec = (v: number) => ({ value: v, range: range(v * 0.8, v * 1.1), why: null });
const measures = (v: number) => ({ imprecision: spec(v), bias: spec(v), total_error: spec(v), mau: spec(v) });
const estimate = {
  id: 8,
  median: 6,
  lower: 5,
  upper: 7,
  limits: '95 % CI' as const,
  number_used: 3,
  updated_at: '2026-11-20T00:00:00.000Z',
  estimate_id: 4,
  version: 2,
  permalink: '/analytes/10?matrix=Serum&type=CVI',
  as_shown: '/api/v1/measurands/10/metas?as_of=x',
};
const matched: MenuTestResult = {
  line: 2,
  input: { name: 'creatinine', unit: 'µmol/L', cva: 2.9, bias: -1 },
  status: 'matched',
  why: null,
  match: { measurand_id: 10, display_name: 'Creatinine', matrix: 'Serum' },
  candidates: [],
  candidates_total: 0,
  lab: { cva: 2.9, bias: 1, te: 5.785, te_source: 'computed', expanded_uncertainty: 5.8 },
  aps_met: { imprecision: 'desirable', bias: 'optimal', total_error: 'desirable', mau: 'desirable' },
  aps_met_over_limits: {
    imprecision: 'minimum',
    bias: 'optimal',
    total_error: 'desirable',
    mau: 'desirable',
  },
  specs: { optimal: measures(1.5), desirable: measures(7.865), minimum: measures(11) },
  sigma: { optimal: 1.2, desirable: 2.367, minimum: 3.5 },
  sigma_ranges: { optimal: null, desirable: range(1.9, 2.6), minimum: null },
  rcv: { up: 19.1, down: -16.04 },
  rcv_ranges: { up: range(16.9, 21.4), down: range(-17.6, -14.5) },
  ii: 0.6,
  ii_range: range(0.42, 0.88),
  ii_with_cva: 0.67,
  ii_with_cva_range: null,
  prri_useful: false,
  estimate,
  estimate_cvg: null,
};
const answer: MenuResponse = {
  parameters: { level: 'desirable', probability: 0.95, z: 1.96, generated_at: '2026-11-27T12:00:00.000Z' },
  summary: { tests: 1, matched: 1, unmatched: 0, ambiguous: 0 },
  sources: { aps: 'Fraser 1997' },
  tests: [matched],
};

describe('MenuSheet', () => {
  it('shows each value with its range labelled by the limits, and the interval caveat', () => {
    render(
      <MemoryRouter>
        <MenuSheet answer={answer} />
      </MemoryRouter>,
    );
    const row = screen.getByRole('row', { name: /creatinine/i });
    // Point and range of the desirable TEa, sigma and RCV down (a true minus, "to" between negatives).
    expect(within(row).getByText('7.9')).toBeTruthy();
    expect(within(row).getByText('6.3–8.7 (CI)')).toBeTruthy();
    expect(within(row).getByText('2.37')).toBeTruthy();
    expect(within(row).getByText('−17.6 to −14.5 (CI)')).toBeTruthy();
    // Meets desirable at the point, not across the CI: said in words.
    expect(within(row).getByText('desirable at the point estimate; minimum across the CI')).toBeTruthy();
    expect(within(row).getByRole('link', { name: 'Creatinine' }).getAttribute('href')).toBe(
      estimate.permalink,
    );
    expect(within(row).getByText(/id 4, v2/)).toBeTruthy();
    expect(screen.getByText(/Made on .*2026.* APS level shown: Desirable/)).toBeTruthy();
  });
});
