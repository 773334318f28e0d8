import { calculateAps, formatFixed } from '@bvdb/domain';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApsCalculator } from './aps-calculator';

describe('ApsCalculator', () => {
  it('starts from the medians at 1 decimal, shows results on Calculate and hides them on edit', async () => {
    render(<ApsCalculator initialCvi={12.64} initialCvg={30} />);
    const cvi = screen.getByLabelText('% within-subject (CVI)');
    expect(cvi).toHaveProperty('value', '12.6');
    expect(screen.queryByText('Results')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Calculate' }));
    expect(screen.getByTestId('aps-desirable-totalError').textContent).toBe(
      `${formatFixed(calculateAps(12.6, 30).desirable.totalError, 1)}%`,
    );
    await userEvent.type(cvi, '1');
    expect(screen.queryByText('Results')).toBeNull();
  });

  it('treats a non-number as 0 and warns with a red border', async () => {
    render(<ApsCalculator />);
    const cvg = screen.getByLabelText('% between-subject (CVG)');
    await userEvent.type(cvg, 'abc');
    expect(screen.getByText('Note CVG is 0')).toBeTruthy();
    expect(cvg.className).toContain('is-invalid');
  });
});
