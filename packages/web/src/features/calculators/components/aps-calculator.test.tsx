import { calculateAps, formatFixed } from '@bvdb/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApsCalculator } from './aps-calculator';

const serum = { key: 'm1', matrix: 'Serum', cvi: 12.64, cvg: 30 };

describe('ApsCalculator', () => {
  it('starts from the medians at 1 decimal, shows results on Calculate and hides them on edit', async () => {
    render(<ApsCalculator matrices={[serum]} defaultKey="m1" />);
    const cvi = screen.getByLabelText('% Within-subject (CVI)');
    expect(cvi).toHaveProperty('value', '12.6');
    expect(screen.getByLabelText('% Between-subject (CVG)')).toHaveProperty('value', '30.0');
    expect(screen.queryByText('Results')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    expect(screen.getByTestId('aps-desirable-totalError').textContent).toBe(
      formatFixed(calculateAps(12.6, 30).desirable.totalError, 1),
    );
    await userEvent.type(cvi, '1');
    expect(screen.queryByText('Results')).toBeNull();
  });

  it('lays the results out as one row per level, CVa, Bias, MAU, TE as plain numbers, units in the header', async () => {
    render(<ApsCalculator matrices={[serum]} defaultKey="m1" />);
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    const table = screen.getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Level', 'CVa (%)', 'Bias (%)', 'MAU (%, k = 2)', 'TE (%)']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Optimal',
      'Desirable',
      'Minimum',
    ]);
    const expected = calculateAps(12.6, 30).optimal;
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(
      [expected.imprecision, expected.bias, expected.mau, expected.totalError].map((v) => formatFixed(v, 1)),
    );
    for (const cell of within(table).getAllByRole('cell')) expect(cell.textContent).toMatch(/^\d+\.\d$/);
  });

  it('opens without error state: empty inputs are not flagged until the user calculates', async () => {
    render(<ApsCalculator />);
    const cvi = screen.getByLabelText('% Within-subject (CVI)');
    const cvg = screen.getByLabelText('% Between-subject (CVG)');
    expect(cvi).toHaveProperty('value', '');
    expect(cvi.className).not.toContain('is-invalid');
    expect(cvg.className).not.toContain('is-invalid');
    expect(screen.queryByText('Note CVI is 0')).toBeNull();
    expect(screen.queryByText('Results')).toBeNull();
    // Nothing entered: Calculate warns and still shows no results.
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    expect(screen.getByText('Note CVI is 0')).toBeTruthy();
    expect(screen.getByText('Note CVG is 0')).toBeTruthy();
    expect(cvi.className).toContain('is-invalid');
    expect(screen.queryByText('Results')).toBeNull();
  });

  it('treats typed text that is not a number as 0 and warns with a red border at once', async () => {
    render(<ApsCalculator />);
    const cvg = screen.getByLabelText('% Between-subject (CVG)');
    await userEvent.type(cvg, 'abc');
    expect(screen.getByText('Note CVG is 0')).toBeTruthy();
    expect(cvg.className).toContain('is-invalid');
    expect(screen.queryByText('Note CVI is 0')).toBeNull();
  });
});
