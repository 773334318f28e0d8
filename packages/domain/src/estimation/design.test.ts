import { describe, expect, it } from 'vitest';
import { describeEstimationDesign, exclusionOf } from './design.js';
import type { EstimationRow, Exclusion } from './types.js';

const row = (
  subject: string,
  sample: string,
  replicate: number,
  value: number | null,
  group?: string,
): EstimationRow => ({
  subject,
  sample,
  replicate,
  value,
  ...(group ? { group } : {}),
});

describe('describeEstimationDesign', () => {
  it('calls a full 2 × 2 × 2 design balanced', () => {
    const rows = ['A', 'B'].flatMap((s) => ['1', '2'].flatMap((x) => [1, 2].map((r) => row(s, x, r, 5 + r))));
    expect(describeEstimationDesign(rows)).toMatchObject({
      balanced: true,
      samples_per_subject: { min: 2, max: 2 },
      replicates_per_sample: { min: 2, max: 2 },
      samples_with_one_replicate: 0,
      missing: [],
    });
  });

  it('reports missing values (by row index), single replicates and unequal samples, without filling them in', () => {
    const rows = [
      row('A', '1', 1, 5, 'F'),
      row('A', '1', 2, null, 'F'),
      row('A', '2', 1, 6, 'F'),
      row('A', '2', 2, 6.2, 'F'),
      row('B', '1', 1, 7, 'M'),
      row('B', '1', 2, 7.1, 'M'),
    ];
    const d = describeEstimationDesign(rows);
    expect(d.balanced).toBe(false);
    expect(d.missing).toEqual([1]);
    expect(d.samples_per_subject).toEqual({ min: 1, max: 2 });
    expect(d.replicates_per_sample).toEqual({ min: 1, max: 2 });
    expect(d.samples_with_one_replicate).toBe(1);
    expect(d.subjects).toEqual([
      { subject: 'A', group: 'F', samples: 2, results: 3, missing: 1 },
      { subject: 'B', group: 'M', samples: 1, results: 2, missing: 0 },
    ]);
  });

  it('a design with every value present but different sample labels per subject is unbalanced', () => {
    const rows = [row('A', '1', 1, 1), row('A', '2', 1, 2), row('B', '1', 1, 1), row('B', '3', 1, 2)];
    expect(describeEstimationDesign(rows).balanced).toBe(false);
  });
});

describe('exclusionOf', () => {
  const ex: Exclusion[] = [
    { step: 'replicate_cochran', subject: 'A', sample: '2', statistic: 0.9, critical: 0.6, p: 0.01 },
    { step: 'reed', subject: 'C', statistic: 0.5, critical: 1 / 3, p: null },
  ];
  it.each([
    ['A', '2', false, 'replicate_cochran'],
    ['A', '1', false, null],
    ['A', '1', true, 'replicate_cochran'],
    ['C', '7', false, 'reed'],
    ['B', '2', false, null],
  ] as const)('subject %s sample %s (replicate removes subject: %s) → %s', (s, x, whole, step) => {
    expect(exclusionOf(ex, s, x, whole)).toBe(step);
  });
});
