import { describe, expect, it } from 'vitest';
import { describeVersionChange, type VersionInputs } from './estimate-history.js';

const v = (datasets: [number, number][], median: number | null, withdrawn = false): VersionInputs => ({
  withdrawn,
  median,
  number_used: withdrawn ? 0 : datasets.length,
  datasets: datasets.map(([id, value]) => ({ id, value })),
});
const label = (id: number) => `DEMO-${id}`;

describe('describeVersionChange (issue 29.5)', () => {
  it.each([
    ['a first version', null, v([[1, 5]], 5), 'First value; N 1'],
    [
      'a dataset added',
      v(
        [
          [170, 5.1],
          [172, 5.6],
        ],
        5.35,
      ),
      v(
        [
          [170, 5.1],
          [171, 5.6],
          [172, 5.6],
        ],
        5.6,
      ),
      'DEMO-171 added; N 2 → 3; median 5.4 → 5.6',
    ],
    [
      'a dataset removed',
      v(
        [
          [1, 4],
          [2, 6],
        ],
        5,
      ),
      v([[1, 4]], 4),
      'DEMO-2 removed; N 2 → 1; median 5.0 → 4.0',
    ],
    [
      'a value changed',
      v(
        [
          [1, 4],
          [2, 6],
        ],
        5,
      ),
      v(
        [
          [1, 4],
          [2, 8],
        ],
        6,
      ),
      'DEMO-2 CV 6.00 → 8.00; median 5.0 → 6.0',
    ],
    ['withdrawn', v([[1, 4]], 4), v([], null, true), 'Withdrawn: no usable study'],
    ['shown again', v([], null, true), v([[1, 4]], 4), 'Shown again; DEMO-1 added; N 0 → 1'],
    [
      'only weights',
      v(
        [
          [1, 4],
          [2, 6],
        ],
        5,
      ),
      v(
        [
          [1, 4],
          [2, 6],
        ],
        5,
      ),
      'Weights or grades changed',
    ],
  ])('%s', (_name, previous, next, text) => {
    expect(describeVersionChange(previous, next, label)).toBe(text);
  });

  it('names a dataset by id when no label is given', () => {
    expect(
      describeVersionChange(
        v([[1, 4]], 4),
        v(
          [
            [1, 4],
            [9, 5],
          ],
          4.5,
        ),
      ),
    ).toBe('dataset 9 added; N 1 → 2; median 4.0 → 4.5');
  });
});
