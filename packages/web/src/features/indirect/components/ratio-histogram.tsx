import type { IndirectMethodResult } from '@bvdb/contract';
import { formatFixed } from '@bvdb/domain';

// Drawn as the forest plot is (components/forest-plot): plain SVG in viewBox units that scales to
// its container, text about 12 px on a 375 px phone; the numbers are in the tables beside it.
const W = 420;
const H = 200;
const PAD = { l: 40, r: 10, t: 10, b: 36 };
const FONT = 13;

/** The log ratios ln(x₂/x₁) of the pairs used, with the fitted model's expected counts over the same bins. */
export function RatioHistogram({ m, label }: { m: IndirectMethodResult; label: string }) {
  const bins = m.histogram;
  if (bins.length === 0) return null;
  const from = bins[0]!.from;
  const to = bins[bins.length - 1]!.to;
  const top = Math.max(1, ...bins.map((b) => b.count), ...m.fitted);
  const x = (v: number) => PAD.l + ((v - from) / (to - from || 1)) * (W - PAD.l - PAD.r);
  const y = (c: number) => H - PAD.b - (c / top) * (H - PAD.t - PAD.b);
  const curve = m.fitted
    .map(
      (c, i) => `${i === 0 ? 'M' : 'L'}${x((bins[i]!.from + bins[i]!.to) / 2).toFixed(1)},${y(c).toFixed(1)}`,
    )
    .join(' ');
  const ticks = [from, (from + to) / 2, to];
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      width="100%"
      role="img"
      aria-label={`Histogram of the log ratios of ${m.pairs_used.toLocaleString('en')} pairs, ${label}, with the fitted model`}
      fontSize={FONT}
      style={{ display: 'block', maxWidth: 520 }}
    >
      {bins.map((b, i) => (
        <rect
          key={i}
          x={x(b.from)}
          y={y(b.count)}
          width={Math.max(0, x(b.to) - x(b.from) - 0.5)}
          height={H - PAD.b - y(b.count)}
          fill="#9ec5fe"
        />
      ))}
      <path d={curve} fill="none" stroke="#b02a37" strokeWidth={2} data-testid="fitted-curve" />
      <line x1={PAD.l} x2={W - PAD.r} y1={H - PAD.b} y2={H - PAD.b} stroke="#495057" />
      {ticks.map((t, i) => (
        <text
          key={t}
          x={x(t)}
          y={H - PAD.b + 16}
          textAnchor={i === 0 ? 'start' : i === 2 ? 'end' : 'middle'}
          fill="#212529"
        >
          {formatFixed(t, 2)}
        </text>
      ))}
      <text x={(PAD.l + W - PAD.r) / 2} y={H - 4} textAnchor="middle" fill="#212529">
        ln(second ÷ first result)
      </text>
      <text x={4} y={PAD.t + 10} fill="#212529">
        {Math.round(top)}
      </text>
    </svg>
  );
}
