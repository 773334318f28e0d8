import type { MetaRecord } from '@bvdb/contract';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ForestPlotFigure } from './forest-plot-figure';
import { axisTicks } from './forest-rows';

const dataset = (study: string, grade: string, cv: number, lo: number, hi: number, weight: number) => ({
  bv_specification_id: Number(study.charCodeAt(0)),
  reference_id: Number(study.charCodeAt(0)),
  reference_title: `Study ${study}`,
  study_id: study,
  grade,
  cv,
  ci_lower: lo,
  ci_upper: hi,
  weight,
});

// The hand example of packages/domain/src/leave-one-out.test.ts: weighted median 8.125; without
// A 14, without B 65/7 ≈ 9.29, without C 6.875.
const meta: MetaRecord = {
  id: 1,
  name: 'Glucose - Serum - :cvi',
  analyte_id: 1,
  var_type: ':cvi',
  median: 8.125,
  lower: 5,
  upper: 20,
  number_used: 3,
  comments: null,
  display: true,
  matrix: 'Serum',
  matrix_id: 1,
  matrix_consolidation_id: null,
  method: 'range',
  limits: 'range',
  seed: null,
  references_array: '[1, 2, 3]',
  datasets: [
    dataset('A', 'A', 5, 4, 6, 0.5),
    dataset('B', 'B', 10, 8, 12, 0.3),
    dataset('C', 'C', 20, 15, 25, 0.2),
  ],
  updated_at: '2026-03-14T10:00:00.000Z',
  computed_at: '2026-11-23T02:00:00.000Z',
};

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('ForestPlotFigure', () => {
  it('is a figure captioned "Forest plot" with one plotted row per study and the pooled diamond', () => {
    render(<ForestPlotFigure meta={meta} />);
    const figure = screen.getByRole('figure', { name: /^Forest plot — Within-subject \(CVI\), Serum/ });
    expect(within(figure).getByRole('img', { name: /Forest plot of 3 studies/ })).toBeTruthy();
    expect(within(figure).getAllByTestId('forest-row')).toHaveLength(3);
    expect(within(figure).getByTestId('forest-pooled').textContent).toContain('8.1');
  });

  it('lists the same numbers in a table alternative, with the weighted median and its limits', () => {
    render(<ForestPlotFigure meta={meta} />);
    const table = screen.getByRole('table', { name: /^Forest plot data/ });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByRole('rowheader').textContent).toContain('Study A');
    expect(cells(rows[1]!)).toEqual(['1', 'A', '5.0', '4.0–6.0', '50.0%']);
    expect(cells(rows[3]!)).toEqual(['3', 'C', '20.0', '15.0–25.0', '20.0%']);
    expect(cells(rows[4]!)).toEqual(['WM', '', '8.1', '5.0–20.0', '100%']);
  });

  it('gives the weighted median without each study and marks the one that moves it most', () => {
    render(<ForestPlotFigure meta={meta} />);
    const table = screen.getByRole('table', { name: /^Leave-one-out/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map(cells)).toEqual([
      ['1', '14.00', '+5.88'],
      ['2', '9.29', '+1.16'],
      ['3', '6.88', '−1.25'],
    ]);
    expect(within(rows[0]!).getByRole('rowheader').textContent).toContain('Study A (moves it most)');
  });

  it('pools the subgroups of one study into one row', () => {
    const split = {
      ...meta,
      datasets: [...meta.datasets, { ...dataset('A', 'B', 7, 6, 8, 0.5), bv_specification_id: 99 }],
    };
    render(<ForestPlotFigure meta={split} />);
    const table = screen.getByRole('table', { name: /^Forest plot data/ });
    expect(within(table).getAllByRole('row')).toHaveLength(5);
    expect(within(table).getByText('Study A (2 subgroups pooled)')).toBeTruthy();
  });
});

describe('axisTicks', () => {
  it.each([
    [4, 25, [0, 5, 10, 15, 20, 25]],
    [0.5, 8.3, [0, 2, 4, 6, 8, 10]],
    [4.1, 5.4, [4, 4.5, 5, 5.5]],
    [0, 0, [0, 0.2, 0.4, 0.6, 0.8, 1]],
  ])('ticks from %f to %f', (min, max, ticks) => expect(axisTicks(min, max)).toEqual(ticks));
});
