import {
  formatFixed,
  rcvAsymmetric,
  RCV_NOT_MEANINGFUL_MESSAGE,
  zForChange,
  zFromProbability,
} from '@bvdb/domain';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RcvTools } from './rcv-modal';

afterEach(cleanup);

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the RCV modal of a measurand: one set of inputs, one RCV', () => {
  it('starts from the measurand CVI at p 0.05 → z 1.64 (one stated direction), and both tools say the same RCV', () => {
    render(<RcvTools cvi={5.64} />);
    expect(screen.getByLabelText('CVI (%)')).toHaveProperty('value', '5.6');
    expect(screen.getByLabelText('Probability')).toHaveProperty('value', '0.05');
    expect(screen.getByLabelText('z-value')).toHaveProperty('value', '1.64');
    expect(screen.getByLabelText(/One direction/)).toHaveProperty('checked', true);
    // one CVI, CVA and probability for both: only one of each field on the screen
    expect(screen.getAllByLabelText('CVI (%)')).toHaveLength(1);
    type('CVA (%)', '2');
    type('1st Result', '5');
    type('2nd Result', '5.7');
    // Computed from the estimate unrounded, as the tables and the menu (issue 42.5): 5.6 would give +14.8%.
    const up = formatFixed(rcvAsymmetric(5.64, 2, zFromProbability(0.05)).up, 1);
    expect(up).not.toBe(formatFixed(rcvAsymmetric(5.6, 2, zFromProbability(0.05)).up, 1));
    expect(screen.getByTestId('cvi-exact').textContent).toContain('(5.64)');
    expect(screen.getByTestId('rcv-up').textContent).toBe(`+${up}%`);
    expect(screen.getByTestId('rcv-verdict').textContent).toContain(
      `z 1.64 (p 0.05, a change in one stated direction), the RCV is +${up}% for a rise`,
    );
  });

  it('"either direction" turns both tools to z 1.96 at p 0.05', () => {
    render(<RcvTools cvi={5.6} />);
    type('CVA (%)', '2');
    type('1st Result', '5');
    type('2nd Result', '5.7');
    fireEvent.click(screen.getByLabelText('Either direction (z 1.96)'));
    expect(screen.getByLabelText('z-value')).toHaveProperty('value', '1.96');
    const up = formatFixed(rcvAsymmetric(5.6, 2, zForChange(0.05, 'either-direction')).up, 1);
    expect(screen.getByTestId('rcv-up').textContent).toBe(`+${up}%`);
    expect(screen.getByTestId('rcv-verdict').textContent).toContain(
      `z 1.96 (p 0.05, a change in either direction), the RCV is +${up}% for a rise`,
    );
  });

  it('a probability of 0.5 shows no "+-" numbers, only that an RCV is not meaningful', () => {
    render(<RcvTools cvi={5.6} />);
    type('Probability', '0.5');
    expect(screen.getByTestId('rcv-not-meaningful').textContent).toBe(RCV_NOT_MEANINGFUL_MESSAGE);
    expect(screen.queryByTestId('rcv-up')).toBeNull();
    expect(screen.queryByText(/\+-/)).toBeNull();
  });

  it('the z / p table reads 2.33 and 2.58, 3.09 ↔ 0.001, and each z is what the calculator gives for its p', () => {
    render(<RcvTools cvi={5.6} />);
    const table = screen.getByRole('table', { name: 'Z-value / p-value' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      ['1.64', '0.05', '0.10'],
      ['1.96', '0.025', '0.05'],
      ['2.33', '0.01', '0.02'],
      ['2.58', '0.005', '0.01'],
      ['2.81', '0.0025', '0.005'],
      ['3.09', '0.001', '0.002'],
    ]);
    for (const [z, oneSided] of rows) {
      type('Probability', oneSided ?? '');
      expect(screen.getByLabelText('z-value')).toHaveProperty('value', z);
    }
  });

  it('gives the RCV over the CVI limits beside the point RCV, while the CVI is the database estimate (issue 32.5)', () => {
    const estimate = { median: 5.64, lower: 4.9, upper: 6.8, limits: '95 % CI' as const };
    render(<RcvTools cvi={5.64} cviEstimate={estimate} />);
    type('CVA (%)', '2');
    const z = zFromProbability(0.05);
    const lo = rcvAsymmetric(4.9, 2, z);
    const hi = rcvAsymmetric(6.8, 2, z);
    expect(screen.getByTestId('rcv-range').textContent).toBe(
      `Over the CVI's 95 % CI (4.9–6.8%), with CVA 2.00% and z 1.64, the RCV is +${formatFixed(lo.up, 1)}% to ` +
        `+${formatFixed(hi.up, 1)}% for a rise and ${formatFixed(lo.down, 1)}% to ${formatFixed(hi.down, 1)}% for a fall.`,
    );
    // A CVI the user typed is not the estimate: no range is claimed for it.
    type('CVI (%)', '7');
    expect(screen.queryByTestId('rcv-range')).toBeNull();
  });

  it('with CVA blank the range line says it is without analytical variation, never "with CVA 0.00%" (issue 42.3)', () => {
    const estimate = { median: 5.64, lower: 4.9, upper: 6.8, limits: '95 % CI' as const };
    render(<RcvTools cvi={5.64} cviEstimate={estimate} />);
    expect(screen.getByTestId('rcv-range').textContent).toContain(
      "Over the CVI's 95 % CI (4.9–6.8%), without analytical variation (no CVA entered) and z 1.64",
    );
    expect(screen.getByTestId('rcv-range').textContent).not.toContain('CVA 0.00%');
    type('CVA (%)', '2');
    expect(screen.getByTestId('rcv-range').textContent).toContain('with CVA 2.00% and z 1.64');
  });

  it('says "range of the studies" when the limits are a range, and shows nothing without limits', () => {
    render(<RcvTools cvi={5.64} cviEstimate={{ median: 5.64, lower: 5, upper: 6, limits: 'range' }} />);
    expect(screen.getByTestId('rcv-range').textContent).toContain(
      "Over the CVI's range of the studies (5.0–6.0%)",
    );
    cleanup();
    render(<RcvTools cvi={5.64} cviEstimate={{ median: 5.64, lower: null, upper: null, limits: null }} />);
    expect(screen.queryByTestId('rcv-range')).toBeNull();
  });
});
