import { calculateAps, formatFixed } from '@bvdb/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { APS_NO_CVG_NOTE, ApsCalculator } from './aps-calculator';

const serum = { key: 'm1', matrix: 'Serum', cvi: 12.64, cvg: 30, cviEstimate: null, cvgEstimate: null };
/** The same matrix as the measurand page passes it: the estimates with their limits (issue 32.5). */
const serumWithLimits = {
  ...serum,
  cviEstimate: { median: 12.64, lower: 10.2, upper: 15.1, limits: '95 % CI' as const },
  cvgEstimate: { median: 30, lower: 22, upper: 41, limits: '95 % CI' as const },
};

describe('ApsCalculator', () => {
  it('starts from the medians shown at 1 decimal, computes from them unrounded as the tables do (issue 42.5), hides results on edit', async () => {
    render(<ApsCalculator matrices={[serum]} defaultKey="m1" />);
    const cvi = screen.getByLabelText('% Within-subject (CVI)');
    expect(cvi).toHaveProperty('value', '12.6');
    expect(screen.getByLabelText('% Between-subject (CVG)')).toHaveProperty('value', '30.0');
    expect(screen.queryByText('Results')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    expect(screen.getByTestId('aps-desirable-totalError').textContent).toBe(
      formatFixed(calculateAps(12.64, 30).desirable.totalError, 1),
    );
    // Not from the rounded box: 12.6 would give another desirable TE.
    expect(formatFixed(calculateAps(12.6, 30).desirable.totalError, 1)).not.toBe(
      formatFixed(calculateAps(12.64, 30).desirable.totalError, 1),
    );
    expect(screen.getByTestId('aps-cvi-exact').textContent).toContain('(12.64)');
    await userEvent.type(cvi, '1');
    expect(screen.queryByTestId('aps-cvi-exact')).toBeNull();
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
    const expected = calculateAps(12.64, 30).optimal;
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(
      [expected.imprecision, expected.bias, expected.mau, expected.totalError].map((v) => formatFixed(v, 1)),
    );
    for (const cell of within(table).getAllByRole('cell')) expect(cell.textContent).toMatch(/^\d+\.\d$/);
  });

  it('writes each level as the live table does: <tr><td>Level</td><td>CVa</td><td>Bias</td><td>MAU</td><td>TE</td></tr> (issue 27.2)', async () => {
    render(<ApsCalculator matrices={[serum]} defaultKey="m1" />);
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    const body = screen.getByRole('table').querySelector('tbody')!;
    const rows = [...body.querySelectorAll('tr')];
    expect(rows).toHaveLength(3);
    const aps = calculateAps(12.64, 30);
    rows.forEach((row, i) => {
      const level = (['optimal', 'desirable', 'minimum'] as const)[i]!;
      // Only <td>s: no <th>, nothing else in the row.
      expect([...row.children].map((c) => c.tagName)).toEqual(['TD', 'TD', 'TD', 'TD', 'TD']);
      expect(row.children[0]!.getAttribute('role')).toBe('rowheader');
      expect([...row.children].map((c) => c.textContent)).toEqual([
        ['Optimal', 'Desirable', 'Minimum'][i],
        ...[aps[level].imprecision, aps[level].bias, aps[level].mau, aps[level].totalError].map((v) =>
          formatFixed(v, 1),
        ),
      ]);
      expect(row.textContent).not.toContain('%');
    });
    // Notes stay outside the rows: nothing under the table says CVG is missing while it is given.
    expect(screen.queryByText(APS_NO_CVG_NOTE, { exact: false })).toBeNull();
  });

  it.each([
    ['blank', ''],
    ['typed 0', '0'],
  ])(
    "CVG %s: the spec's cells stay and a line under the table says Bias and TE need a CVG (issue 27.5)",
    async (_, typed) => {
      render(<ApsCalculator />);
      await userEvent.type(screen.getByLabelText('% Within-subject (CVI)'), '5');
      if (typed) await userEvent.type(screen.getByLabelText('% Between-subject (CVG)'), typed);
      await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
      expect(screen.getByText('Note CVG is 0')).toBeTruthy();
      expect(screen.getByTestId('aps-desirable-bias').textContent).toBe(
        formatFixed(calculateAps(5, 0).desirable.bias, 1),
      );
      const note = screen.getByTestId('aps-no-cvg');
      expect(note.textContent).toContain(
        'Bias and TE need a CVG: with CVG 0 they understate the specification',
      );
      expect(note.closest('table')).toBeNull();
      expect(screen.getByRole('columnheader', { name: /Bias/ }).getAttribute('aria-describedby')).toBe(
        note.id,
      );
    },
  );

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

  it('shows the APS over the estimates 95 % CIs in its own table, the point rows unchanged (issue 32.5)', async () => {
    render(<ApsCalculator matrices={[serumWithLimits]} defaultKey="m1" />);
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    const ranges = screen.getByTestId('aps-ranges');
    expect(ranges.querySelector('caption')!.textContent).toBe(
      "The same specifications over the estimates' 95 % CIs (lowest – highest, %)",
    );
    // Desirable TE: lowest at both lower limits, highest at both upper limits (it rises with each).
    const lo = calculateAps(10.2, 22).desirable.totalError;
    const hi = calculateAps(15.1, 41).desirable.totalError;
    expect(screen.getByTestId('aps-range-desirable-totalError').textContent).toBe(
      `${formatFixed(lo, 1)} – ${formatFixed(hi, 1)}`,
    );
    // CVa depends on the CVI alone: 0.5 × 10.2 – 0.5 × 15.1.
    expect(screen.getByTestId('aps-range-desirable-imprecision').textContent).toBe('5.1 – 7.6');
    // The point table keeps its plain cells.
    expect(screen.getByTestId('aps-desirable-totalError').textContent).toBe(
      formatFixed(calculateAps(12.64, 30).desirable.totalError, 1),
    );
  });

  it('shows no ranges for values the user typed: they are not the database estimates', async () => {
    render(<ApsCalculator matrices={[serumWithLimits]} defaultKey="m1" />);
    const cvi = screen.getByLabelText('% Within-subject (CVI)');
    await userEvent.clear(cvi);
    await userEvent.type(cvi, '9');
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    expect(screen.getByTestId('aps-desirable-imprecision').textContent).toBe('4.5');
    expect(screen.queryByTestId('aps-ranges')).toBeNull();
  });

  it('without a CVG estimate, Bias and TE have no range ("—"), CVa and MAU do', async () => {
    render(
      <ApsCalculator matrices={[{ ...serumWithLimits, cvg: null, cvgEstimate: null }]} defaultKey="m1" />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    expect(screen.getByTestId('aps-range-optimal-bias').textContent).toBe('—');
    expect(screen.getByTestId('aps-range-optimal-totalError').textContent).toBe('—');
    expect(screen.getByTestId('aps-range-optimal-mau').textContent).toBe(
      `${formatFixed(calculateAps(10.2, 0).optimal.mau, 1)} – ${formatFixed(calculateAps(15.1, 0).optimal.mau, 1)}`,
    );
  });
});
