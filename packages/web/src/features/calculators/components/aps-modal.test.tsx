import type { MetaRecord } from '@bvdb/contract';
import { calculateAps, formatFixed } from '@bvdb/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApsModal } from './aps-modal';

let nextId = 1;
function meta(
  matrix: string,
  matrixId: number,
  varType: ':cvi' | ':cvg',
  median: number,
  numberUsed: number,
): MetaRecord {
  return {
    id: nextId++,
    name: `${matrix} ${varType}`,
    analyte_id: 37,
    var_type: varType,
    median,
    lower: median - 1,
    upper: median + 1,
    number_used: numberUsed,
    comments: null,
    display: true,
    matrix,
    matrix_id: matrixId,
    matrix_consolidation_id: null,
    method: 'range',
    limits: 'range',
    seed: null,
    references_array: '[]',
    datasets: [],
    computed_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  };
}

// As 25-hydroxyvitamin D in the demo data: the first matrix (serum) has a CVI and no CVG.
const metas = [
  meta('Serum', 1, ':cvi', 6.43, 2),
  meta('Plasma', 2, ':cvg', 44.2, 1),
  meta('Plasma', 2, ':cvi', 1.84, 1),
];
const NO_CVG =
  'No CVG estimate for Serum. Bias and TE need a CVG: with CVG 0 they understate the specification.';

describe('ApsModal', () => {
  it('starts on the headline matrix (the one with both estimates), not the first one', async () => {
    render(<ApsModal show onHide={() => {}} metas={metas} />);
    expect(
      screen.getByRole('dialog', { name: 'Analytical Performance Specification Calculation' }),
    ).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Matrix').selectedOptions[0]!.textContent).toMatch(
      /^Plasma/,
    );
    expect(screen.getByLabelText('% Within-subject (CVI)')).toHaveProperty('value', '1.8');
    expect(screen.getByLabelText('% Between-subject (CVG)')).toHaveProperty('value', '44.2');
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    expect(screen.getByTestId('aps-desirable-bias').textContent).toBe(
      formatFixed(calculateAps(1.8, 44.2).desirable.bias, 1),
    );
    expect(screen.queryByText(NO_CVG, { exact: false })).toBeNull();
  });

  it('choosing a matrix without CVG fills its medians and says beside Bias and TE that CVG 0 understates them', async () => {
    render(<ApsModal show onHide={() => {}} metas={metas} />);
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    await userEvent.selectOptions(screen.getByLabelText('Matrix'), 'm1');
    expect(screen.queryByText('Results')).toBeNull();
    expect(screen.getByLabelText('% Within-subject (CVI)')).toHaveProperty('value', '6.4');
    expect(screen.getByLabelText('% Between-subject (CVG)')).toHaveProperty('value', '');
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    const note = screen.getByTestId('aps-no-cvg');
    expect(note.textContent).toContain(NO_CVG);
    // The point table (the ranges over the limits follow in a table of their own, issue 32.5).
    const points = within(screen.getAllByRole('table')[0]!);
    expect(points.getByRole('columnheader', { name: /Bias/ }).getAttribute('aria-describedby')).toBe(note.id);
    expect(points.getByRole('columnheader', { name: /TE/ }).getAttribute('aria-describedby')).toBe(note.id);
    expect(points.getByRole('columnheader', { name: /CVa/ }).getAttribute('aria-describedby')).toBeNull();
    expect(screen.getByTestId('aps-range-desirable-bias').textContent).toBe('—');
    // The spec's typed-input rule stays.
    expect(screen.getByText('Note CVG is 0')).toBeTruthy();
    expect(screen.getByTestId('aps-desirable-bias').textContent).toBe(
      formatFixed(calculateAps(6.4, 0).desirable.bias, 1),
    );
  });

  it('drops the sentence once the user types a CVG of their own', async () => {
    render(<ApsModal show onHide={() => {}} metas={metas} />);
    await userEvent.selectOptions(screen.getByLabelText('Matrix'), 'm1');
    await userEvent.type(screen.getByLabelText('% Between-subject (CVG)'), '40');
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    expect(screen.getByText('Results')).toBeTruthy();
    expect(screen.queryByTestId('aps-no-cvg')).toBeNull();
  });
});
