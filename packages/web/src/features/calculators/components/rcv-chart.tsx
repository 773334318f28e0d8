import type { RcvCurvePoint } from '@bvdb/domain';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { rcvAxis } from '../rcv-axis';

/** RCV up and down against the probability (x 0.5–1), with the observed % change as a line. */
export default function RcvChart({
  curve,
  percentChange,
  withoutCva = false,
}: {
  curve: RcvCurvePoint[];
  percentChange?: number | null;
  /** CVA is 0: the curve is of biological variation alone, and says so (issue 27.4). */
  withoutCva?: boolean;
}) {
  const data = curve.map((p) => ({
    x: p.fraction,
    up: Number(p.up.toFixed(3)),
    down: Number(p.down.toFixed(3)),
  }));
  // Fitted to the data and the observed change: recharts' own domain cut large RCVs and dropped a
  // change line outside the curve (decision 070).
  const axis = rcvAxis(curve, percentChange);
  return (
    <div
      style={{ width: '100%', height: 300 }}
      role="img"
      aria-label={`Chart of the RCV increase and decrease by probability${withoutCva ? ', without analytical variation' : ''}; the data are in the table below`}
      data-testid="rcv-chart"
    >
      <ResponsiveContainer>
        <LineChart
          data={data}
          margin={{ top: 10, right: 20, bottom: 20, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="x"
            type="number"
            domain={[0.5, 1]}
            ticks={[0.5, 0.6, 0.7, 0.8, 0.9, 1]}
            label={{ value: 'Probability', position: 'insideBottom', offset: -10 }}
          />
          <YAxis unit="%" type="number" domain={axis.domain} ticks={axis.ticks} allowDataOverflow={false} />
          <Tooltip />
          <Legend verticalAlign="top" />
          <Line
            type="monotone"
            dataKey="up"
            name="RCV Increase"
            stroke="#198754"
            dot={false}
            isAnimationActive={false}
          />
          <Line
            type="monotone"
            dataKey="down"
            name="RCV Decrease"
            stroke="#dc3545"
            dot={false}
            isAnimationActive={false}
          />
          {percentChange !== undefined && percentChange !== null ? (
            <ReferenceLine
              y={percentChange}
              stroke="#0d6efd"
              strokeDasharray="6 3"
              ifOverflow="extendDomain"
              // Inside the plot: at 'right' the 20 px margin cut the label to a stray "%" (issue 27.10).
              label={{
                value: `Change ${percentChange > 0 ? '+' : ''}${percentChange.toFixed(1)}%`,
                position: 'insideTopLeft',
              }}
            />
          ) : null}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
