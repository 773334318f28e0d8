import {
  changeProbability,
  formatFixed,
  rcvAsymmetric,
  rcvForMeans,
  RCV_NOT_MEANINGFUL_MESSAGE,
  RESULTS_AVERAGED_PROMPT,
  zForChange,
} from '@bvdb/domain';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CVA_ZERO_ALERT } from '../cva-zero';
import { RcvApplication } from './rcv-application';

afterEach(cleanup);

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const verdict = () => screen.getByTestId('rcv-verdict').textContent ?? '';

describe('Application of the RCV, as a laboratory reads it', () => {
  it('gives no verdict on empty inputs (CVA 0): it asks for the results instead', () => {
    render(<RcvApplication />);
    expect(screen.getByText(CVA_ZERO_ALERT)).toBeTruthy();
    expect(screen.getByTestId('percent-change').textContent).toBe('0.0%');
    expect(verdict()).toBe('Enter a first result greater than 0 to assess the change.');
    expect(verdict()).not.toMatch(/larger than the RCV|within the RCV/);
  });

  it('asks for the CVI before judging two results', () => {
    render(<RcvApplication />);
    type('1st Result', '5');
    type('2nd Result', '5.8');
    expect(verdict()).toBe('Enter the CVI (greater than 0) to assess the change.');
  });

  it('does not call a 0 → 5 change "within the RCV" (the % cell keeps the spec\'s 0)', () => {
    render(<RcvApplication initialCvi={5.6} initialCva={2} />);
    type('1st Result', '0');
    type('2nd Result', '5');
    expect(screen.getByTestId('percent-change').textContent).toBe('0.0%');
    expect(verdict()).toBe('Enter a first result greater than 0 to assess the change.');
  });

  it('glucose 5.0 → 5.8 mmol/L (CVI 5.6 %, CVA 2 %): a real rise at p 0.05 in one stated direction, z 1.64', () => {
    render(<RcvApplication initialCvi={5.6} initialCva={2} />);
    type('1st Result', '5');
    type('2nd Result', '5.8');
    const { up, down } = rcvAsymmetric(5.6, 2, zForChange(0.05, 'one-direction'));
    expect(verdict()).toBe(
      `With CVI 5.60%, CVA 2.00% and z 1.64 (p 0.05, a change in one stated direction), the RCV is ` +
        `+${formatFixed(up, 1)}% for a rise and ${formatFixed(down, 1)}% for a fall. ` +
        'The change of +16.0% is a rise larger than the RCV: likely a real change.',
    );
    expect(screen.queryByText(CVA_ZERO_ALERT)).toBeNull();
  });

  it('names the two-sided z 1.96 when the change may go either way, and the verdict can turn', () => {
    render(<RcvApplication initialCvi={5.6} initialCva={2} />);
    type('1st Result', '5');
    type('2nd Result', '5.78');
    expect(verdict()).toContain('likely a real change');
    fireEvent.click(screen.getByLabelText(/Either direction/));
    expect(verdict()).toContain('z 1.96 (p 0.05, a change in either direction)');
    expect(verdict()).toContain(
      'The change of +15.6% is within the RCV: it may be biological and analytical noise.',
    );
  });

  it('a change exactly at 0 % is within the RCV, never "larger" (> not ≥)', () => {
    render(<RcvApplication initialCvi={5.6} initialCva={2} />);
    type('1st Result', '80');
    type('2nd Result', '80');
    expect(verdict()).toContain('The change of 0.0% is within the RCV');
  });

  it.each([
    ['blank', ''],
    ['typed 0', '0'],
  ])(
    'CVA %s: no verdict, the RCV and curve are labelled without analytical variation (issue 27.4)',
    async (_, cva) => {
      render(<RcvApplication initialCvi={5.6} />);
      type('CVA (%)', cva);
      type('1st Result', '5');
      type('2nd Result', '5.7');
      expect(screen.getByText(CVA_ZERO_ALERT)).toBeTruthy();
      const text = verdict();
      expect(text).toContain("Enter your method's analytical CV to judge this change");
      expect(text).toContain('the RCV without analytical variation is');
      expect(text).toContain('the change is +14.0%');
      expect(text).not.toMatch(/real change|noise|within the RCV|larger than the RCV/);
      expect(screen.getByTestId('rcv-curve-title').textContent).toBe('RCV without analytical variation');
      expect(screen.getByText(/RCV by probability, without analytical variation/)).toBeTruthy();
      // A realistic CVA puts the same rise inside the RCV: the verdict that CVA 0 would have overstated.
      type('CVA (%)', '3');
      expect(verdict()).toContain('within the RCV');
      expect(screen.queryByTestId('rcv-curve-title')).toBeNull();
    },
  );

  it('on its own page the tool has no second "Application of the RCV" heading', () => {
    render(<RcvApplication titled={false} />);
    expect(screen.queryByRole('heading', { name: 'Application of the RCV' })).toBeNull();
    cleanup();
    render(<RcvApplication />);
    expect(screen.getByRole('heading', { name: 'Application of the RCV', level: 2 })).toBeTruthy();
  });

  it('says an RCV is not meaningful for a probability of 0.5 or more, with no numbers', () => {
    render(<RcvApplication initialCvi={5.6} initialCva={2} />);
    type('1st Result', '5');
    type('2nd Result', '5.8');
    type('Probability', '0.5');
    expect(verdict()).toBe(RCV_NOT_MEANINGFUL_MESSAGE);
    expect(verdict()).not.toMatch(/%/);
  });

  it('property: the sentence says "real change" exactly when |% change| exceeds the RCV in that direction', () => {
    render(<RcvApplication />);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100000 }),
        fc.integer({ min: 0, max: 200000 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom('0.01', '0.025', '0.05', '0.1'),
        fc.boolean(),
        (first10, second10, cvi10, cva10, probability, either) => {
          const [first, second, cvi, cva] = [first10 / 10, second10 / 10, cvi10 / 10, cva10 / 10];
          type('1st Result', String(first));
          type('2nd Result', String(second));
          type('CVI (%)', String(cvi));
          type('CVA (%)', String(cva));
          type('Probability', probability);
          fireEvent.click(screen.getByLabelText(either ? /Either direction/ : /One direction/));
          const z = zForChange(Number(probability), either ? 'either-direction' : 'one-direction');
          const { up, down } = rcvAsymmetric(cvi, cva, z);
          const change = ((second - first) / first) * 100;
          const real = change > 0 ? change > up : change < down;
          expect(verdict().includes('likely a real change')).toBe(real);
          expect(verdict().includes('within the RCV')).toBe(!real);
        },
      ),
      { numRuns: 40 },
    );
  }, 30_000);

  it('several results: a +12 % change is noise between single results but real between means of three (issue 32.6)', () => {
    render(<RcvApplication initialCvi={5.6} initialCva={2} />);
    type('1st Result', '5');
    type('2nd Result', '5.6');
    expect(verdict()).toContain('within the RCV');
    type('Results averaged (1st)', '3');
    type('Results averaged (2nd)', '3');
    const { up } = rcvForMeans(5.6, 2, zForChange(0.05, 'one-direction'), 3, 3);
    expect(verdict()).toContain(`the RCV is +${formatFixed(up, 1)}% for a rise`);
    expect(verdict()).toContain('likely a real change');
    const p = changeProbability(12, 5.6, 2, 3, 3, 'one-direction');
    expect(screen.getByTestId('rcv-probability').textContent).toBe(
      `Probability that this rise is real (in its direction): ${formatFixed(p * 100, 1)} %`,
    );
  });

  it('gives the probability of a real change, not only yes/no, and the limits in the results unit', () => {
    render(<RcvApplication initialCvi={5.6} initialCva={2} />);
    type('1st Result', '5');
    type('2nd Result', '5.8');
    type('Unit (optional)', 'mmol/L');
    // z = ln(1.16) / (0.059422 · √2) = 1.7664 → Φ = 96.1 % one direction; 2Φ − 1 = 92.3 % either.
    expect(screen.getByTestId('rcv-probability').textContent).toBe(
      'Probability that this rise is real (in its direction): 96.1 %',
    );
    const { up, down } = rcvAsymmetric(5.6, 2, zForChange(0.05, 'one-direction'));
    expect(screen.getByTestId('rcv-limits').textContent).toBe(
      `At 95 %, one direction: a 2nd result above ${formatFixed(5 * (1 + up / 100), 2)} mmol/L is a real ` +
        `rise (+${formatFixed(up, 1)}%); below ${formatFixed(5 * (1 + down / 100), 2)} mmol/L a real fall ` +
        `(${formatFixed(down, 1)}%).`,
    );
    expect(screen.getByRole('cell', { name: '5.80 mmol/L' })).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/Either direction/));
    expect(screen.getByTestId('rcv-probability').textContent).toBe(
      'Probability that this rise is real (in either direction): 92.3 %',
    );
    expect(screen.getByTestId('probability-words').textContent).toBe('95 %, either direction');
  });

  it('asks for a usable number of results averaged instead of judging', () => {
    render(<RcvApplication initialCvi={5.6} initialCva={2} />);
    type('1st Result', '5');
    type('2nd Result', '5.8');
    type('Results averaged (2nd)', '0');
    expect(verdict()).toBe(RESULTS_AVERAGED_PROMPT);
    expect(screen.queryByTestId('rcv-probability')).toBeNull();
  });
});
