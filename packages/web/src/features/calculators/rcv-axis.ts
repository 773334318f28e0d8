import type { RcvCurvePoint } from '@bvdb/domain';

/** A round step near `raw`: 1, 2, 2.5 or 5 times a power of ten. */
function roundStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw)!;
  return step * power;
}

/**
 * The RCV chart's y-axis: from the lowest to the highest of the curve (up and down) and the observed
 * change, zero included, on about six round ticks. The chart's axis once fell short of these (a CVI
 * of 30 % gives an RCV of +126 %; an observed change past the curve was not drawn at all).
 */
export function rcvAxis(
  curve: readonly Pick<RcvCurvePoint, 'up' | 'down'>[],
  percentChange?: number | null,
): { domain: [number, number]; ticks: number[] } {
  const values = curve.flatMap((p) => [p.up, p.down]).filter(Number.isFinite);
  if (percentChange !== undefined && percentChange !== null && Number.isFinite(percentChange))
    values.push(percentChange);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const step = high > low ? roundStep((high - low) / 6) : 1;
  const from = Math.floor(low / step);
  const to = Math.max(Math.ceil(high / step), from + 1);
  const ticks = Array.from({ length: to - from + 1 }, (_, i) => Number(((from + i) * step).toFixed(6)));
  return { domain: [ticks[0]!, ticks.at(-1)!], ticks };
}
