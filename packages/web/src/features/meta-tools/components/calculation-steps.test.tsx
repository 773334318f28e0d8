import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CalculationSteps, type Calculation } from './calculation-steps';

describe('the simulator shows numbers as the site rounds them, never binary noise', () => {
  it('study CVs and CIs to 2 decimals, the weighted median and its limits to 1 decimal', () => {
    const rows = [
      {
        ID: '7',
        Include: true,
        Score: 'A' as const,
        CV: 5.6,
        CI_lower: 4.812345678901,
        CI_upper: 6.700000000000001,
      },
      { ID: '9', Include: true, Score: 'B' as const, CV: 6.25, CI_lower: 5.1, CI_upper: 7.9 },
    ];
    const result = {
      N: 2,
      'W.Median': 5.600000000000001,
      Range_lower: 5.6,
      Range_upper: 6.25,
      method: 'range',
      seed: null,
      source: 'built-in',
      weights: [
        {
          ID: '7',
          rows: 1,
          Score: 'A',
          CV: 5.6,
          CI_lower: 4.812345678901,
          CI_upper: 6.700000000000001,
          weight: 0.7,
        },
        { ID: '9', rows: 1, Score: 'B', CV: 6.25, CI_lower: 5.1, CI_upper: 7.9, weight: 0.3 },
      ],
    } as unknown as Calculation;
    render(
      <CalculationSteps title="CVI Calculation" type="cvi" rows={rows} result={result} failed={false} />,
    );
    const input = screen.getByRole('table', { name: 'CVI Calculation: input rows' });
    expect(within(input).getAllByRole('row')[1]!.textContent).toBe('7TRUEA5.604.816.70');
    expect(screen.getByTestId('weight-cvi-7').textContent).toContain('5.604.81–6.70');
    expect(
      within(screen.getByTestId('result-cvi'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2', '5.6', '5.6', '6.3']);
  });
});
