import { describe, expect, it } from 'vitest';
import { pinnedDifferences, RELEASE_PARAM, releaseOfValue, type PinnableMeta } from './release-pin';

const meta = (over: Partial<PinnableMeta>): PinnableMeta =>
  ({
    id: 1,
    estimate_id: 10,
    matrix: 'Serum',
    var_type: ':cvi',
    median: 5,
    lower: 4,
    upper: 6,
    number_used: 3,
    updated_at: '2026-01-01T00:00:00Z',
    ...over,
  }) as PinnableMeta;

describe('the release a citation names (issue 30.3)', () => {
  const releases = [
    { version: '2026-11-01', published_at: '2026-11-01T09:00:00Z' },
    { version: '2026-10-01', published_at: '2026-10-01T09:00:00Z' },
  ];
  it('is the newest release when the value has not changed since, else none', () => {
    expect(releaseOfValue('2026-10-15T00:00:00Z', releases)).toBe('2026-11-01');
    expect(releaseOfValue('2026-11-01T09:00:00Z', releases)).toBe('2026-11-01');
    expect(releaseOfValue('2026-11-02T00:00:00Z', releases)).toBeNull();
    expect(releaseOfValue('2026-10-15T00:00:00Z', [])).toBeNull();
  });
  it('reads only release versions from a permalink', () => {
    for (const v of ['2026-11-27', '2026-11-27.2']) expect(RELEASE_PARAM.test(v)).toBe(true);
    for (const v of ['latest', '2026-11-27.0', '2026-1-2', '2026-11-27;drop'])
      expect(RELEASE_PARAM.test(v)).toBe(false);
  });
});

describe("a pinned page's differences", () => {
  const label = (m: PinnableMeta) => `${m.matrix} ${m.var_type === ':cvi' ? 'CVI' : 'CVG'}`;
  it('names the estimates whose value, limits or N changed, and those added or withdrawn since', () => {
    const pinned = [
      meta({}),
      meta({ estimate_id: 11, var_type: ':cvg', median: 20 }),
      meta({ estimate_id: 12, matrix: 'Urine' }),
    ];
    const current = [
      meta({}),
      meta({ estimate_id: 11, var_type: ':cvg', median: 20, upper: 25 }),
      meta({ estimate_id: 13, matrix: 'Plasma' }),
    ];
    const d = pinnedDifferences(pinned, current, label);
    expect(d.map((x) => [x.label, x.pinned?.estimate_id ?? null, x.current?.estimate_id ?? null])).toEqual([
      ['Serum CVG', 11, 11],
      ['Urine CVI', 12, null],
      ['Plasma CVI', null, 13],
    ]);
    expect(pinnedDifferences(pinned, pinned, label)).toEqual([]);
  });
});
