import { formatFixed } from './rounding.js';

/** What the history list compares between two versions of an estimate (issue 29.5). */
export interface VersionInputs {
  withdrawn: boolean;
  median: number | null;
  number_used: number;
  datasets: { id: number; value: number }[];
}

/**
 * The inputs' difference from one version to the next, as the history lists it: "DEMO-171 added;
 * DEMO-003 removed; DEMO-005 CV 5.1 → 5.6; N 2 → 3; median 5.4 → 5.6". `labelOf` names a dataset
 * (its unique identifier when the page knows it). The first version and a withdrawal say so.
 */
export function describeVersionChange(
  previous: VersionInputs | null,
  next: VersionInputs,
  labelOf: (datasetId: number) => string = (id) => `dataset ${id}`,
): string {
  if (next.withdrawn) return 'Withdrawn: no usable study';
  if (!previous) return `First value; N ${next.number_used}`;
  const parts: string[] = [];
  const before = new Map(previous.datasets.map((d) => [d.id, d.value]));
  const after = new Map(next.datasets.map((d) => [d.id, d.value]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) => a - b);
  for (const id of ids) {
    const b = before.get(id);
    const a = after.get(id);
    if (b === undefined) parts.push(`${labelOf(id)} added`);
    else if (a === undefined) parts.push(`${labelOf(id)} removed`);
    else if (a !== b) parts.push(`${labelOf(id)} CV ${formatFixed(b, 2)} → ${formatFixed(a, 2)}`);
  }
  if (previous.withdrawn) parts.unshift('Shown again');
  const n = previous.withdrawn ? 0 : previous.number_used;
  if (n !== next.number_used) parts.push(`N ${n} → ${next.number_used}`);
  if (!previous.withdrawn && previous.median !== next.median && next.median !== null) {
    parts.push(`median ${formatFixed(previous.median ?? 0, 1)} → ${formatFixed(next.median, 1)}`);
  }
  return parts.length > 0 ? parts.join('; ') : 'Weights or grades changed';
}
