import { formatFixed, personalisedReferenceInterval } from '@bvdb/domain';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { IndividualityCalculators } from './individuality-calculators';

afterEach(cleanup);

const type = (label: string | RegExp, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('individuality, set point and personalised interval, as a laboratory reads them', () => {
  it('an empty form shows what to enter, not "CVG must be greater than 0" or "1 sample"', () => {
    render(<IndividualityCalculators />);
    expect(text('ii')).toBe('Enter the CVI and the CVG.');
    expect(text('set-point-samples')).toBe('Enter the CVI.');
    expect(screen.queryByText(/must be greater than 0/)).toBeNull();
    expect(screen.queryByText(/1 sample/)).toBeNull();
  });

  it('asks only for what is missing', () => {
    render(<IndividualityCalculators initialCvi={5.6} />);
    expect(text('ii')).toBe('Enter the CVG.');
  });

  it('CVI 4.4 %, CVG 13.4 %, CVA 2.2 %: II 0.33 and 4 samples for ±5 % of the set point', () => {
    render(<IndividualityCalculators />);
    type('CVI (%)', '4.4');
    type('CVG (%)', '13.4');
    type('CVA (%)', '2.2');
    expect(text('ii')).toBe('0.33');
    expect(text('set-point-samples')).toBe('4 samples');
  });

  it('offers both indices, labelled and cited: II = CVI/CVG and II with CVA = √(CVI²+CVA²)/CVG (issue 27.6)', () => {
    render(<IndividualityCalculators />);
    type('CVI (%)', '4.4');
    type('CVG (%)', '13.4');
    type('CVA (%)', '2.2');
    expect(text('ii')).toBe('0.33');
    // √(4.4² + 2.2²) / 13.4 = 4.919 / 13.4 = 0.367
    expect(text('ii-cva')).toBe('0.37');
    expect(screen.getByTestId('ii-cva').getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('II with CVA = √(CVI² + CVA²) / CVG')).toBeTruthy();
    expect(screen.getByText(/II with CVA = √\(CVI² \+ CVA²\) \/ CVG, what results of a method/)).toBeTruthy();
    type('CVA (%)', '0');
    expect(text('ii-cva')).toBe('0.33');
  });

  it('a CVG typed as 0 is an error the user made, and says so', () => {
    render(<IndividualityCalculators />);
    type('CVI (%)', '4.4');
    type('CVG (%)', '0');
    expect(text('ii')).toBe('CVG must be greater than 0');
  });

  it.each([
    ['78, 82, 80', 'Read 3 results (separated by commas): 78; 82; 80.'],
    ['78 82 80', 'Read 3 results (separated by spaces): 78; 82; 80.'],
    ['78,5; 80,1; 79', 'Read 3 results (separated by semicolons or lines, decimal commas): 78.5; 80.1; 79.'],
    ['78,5 80,1', 'Read 2 results (separated by spaces, decimal commas): 78.5; 80.1.'],
  ])('reads "%s" and says how: %s', (typed, message) => {
    render(<IndividualityCalculators initialCvi={5.6} />);
    type(/Previous results/, typed);
    expect(text('results-reading')).toBe(message);
    expect(screen.getByTestId('pri').querySelectorAll('li').length).toBeGreaterThan(0);
  });

  it('shows the interval for "78, 82, 80" with the database CVI, to 2 decimals', () => {
    render(<IndividualityCalculators initialCvi={5.6} />);
    type('CVA (%)', '2');
    type(/Previous results/, '78, 82, 80');
    const [population] = personalisedReferenceInterval({ results: [78, 82, 80], cvi: 5.6, cva: 2 });
    expect(screen.getByTestId('pri').textContent).toContain(
      `With the database CVI: ${formatFixed(population!.lower, 2)} – ${formatFixed(population!.upper, 2)}`,
    );
  });

  it('names the entry it could not read', () => {
    render(<IndividualityCalculators initialCvi={5.6} />);
    type(/Previous results/, '78, abc, 80');
    expect(text('results-reading')).toBe('"abc" is not a number.');
    expect(screen.queryByTestId('pri')).toBeNull();
  });
});
