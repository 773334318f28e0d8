import { rcvModellingCurve } from '@bvdb/domain';
import { render, screen, waitFor } from '@testing-library/react';
import type * as Recharts from 'recharts';
import { describe, expect, it, vi } from 'vitest';
import { rcvAxis } from '../rcv-axis';
import RcvChart from './rcv-chart';

/** The y-axis's tick labels as drawn ("120%"), as numbers, once the chart has laid itself out. */
async function yTicks(container: HTMLElement): Promise<number[]> {
  const read = () =>
    Array.from(
      container.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value'),
    ).map((t) => Number((t.textContent ?? '').replace('%', '')));
  await waitFor(() => expect(read().length).toBeGreaterThan(1), { timeout: 10_000 });
  return read();
}

// jsdom lays nothing out: the responsive container gives the chart a desk's 600 × 300 instead.
vi.mock('recharts', async (importOriginal) => {
  const recharts = await importOriginal<typeof Recharts>();
  const { cloneElement } = await import('react');
  return {
    ...recharts,
    ResponsiveContainer: ({
      children,
    }: {
      children: React.ReactElement<{ width?: number; height?: number }>;
    }) => cloneElement(children, { width: 600, height: 300 }),
  };
});

describe('RcvChart: the y-axis fits the curve and the observed change (decision 070)', () => {
  it('reaches past the largest RCV of a CVI of 30 % (+126 % up, −56 % down at 0.975)', async () => {
    const curve = rcvModellingCurve(30, 2);
    const top = Math.max(...curve.map((p) => p.up));
    const bottom = Math.min(...curve.map((p) => p.down));
    expect(top).toBeGreaterThan(100);
    const { container } = render(<RcvChart curve={curve} />);
    const ticks = await yTicks(container);
    expect(ticks.length).toBeGreaterThan(3);
    expect(Math.max(...ticks)).toBeGreaterThanOrEqual(top);
    expect(Math.min(...ticks)).toBeLessThanOrEqual(bottom);
  });

  it('draws an observed change far outside the curve, with its label, and the axis reaches it', async () => {
    const curve = rcvModellingCurve(2, 1);
    const { container } = render(<RcvChart curve={curve} percentChange={300} />);
    expect(Math.max(...(await yTicks(container)))).toBeGreaterThanOrEqual(300);
    expect(screen.getByText('Change +300.0%')).toBeTruthy();
  });

  it('rcvAxis: round ticks from below the lowest to above the highest value, zero among them', () => {
    expect(rcvAxis([{ up: 125.6, down: -55.7 }])).toEqual({
      domain: [-100, 150],
      ticks: [-100, -50, 0, 50, 100, 150],
    });
    expect(rcvAxis([{ up: 7.2, down: -6.8 }], -25)).toEqual({
      domain: [-30, 10],
      ticks: [-30, -20, -10, 0, 10],
    });
    expect(rcvAxis([{ up: 3.1, down: -2.9 }])).toEqual({
      domain: [-3, 4],
      ticks: [-3, -2, -1, 0, 1, 2, 3, 4],
    });
    expect(rcvAxis([{ up: 0, down: 0 }])).toEqual({ domain: [0, 1], ticks: [0, 1] });
  });
});
