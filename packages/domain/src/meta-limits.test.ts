import { describe, expect, it } from 'vitest';
import { limitsKindOf, limitsTag } from './meta-limits.js';
import { metaAnalyse } from './meta-analysis.js';

describe('limitsKindOf (issue 27.7)', () => {
  it.each([
    ['bootstrap', '95 % CI'],
    ['single', '95 % CI'],
    ['range', 'range'],
    ['none', null],
    ['unknown', null],
  ])('%s → %s', (method, kind) => {
    expect(limitsKindOf(method)).toBe(kind);
  });

  it('follows the number of studies the engine pooled', () => {
    const row = (id: number, cv: number) => ({
      id,
      include: true,
      score: 'A' as const,
      cv,
      ciLower: cv - 1,
      ciUpper: cv + 1,
    });
    const rows = (n: number) => Array.from({ length: n }, (_, i) => row(i + 1, 5 + i / 10));
    expect(limitsKindOf(metaAnalyse(rows(1)).method)).toBe('95 % CI');
    expect(limitsKindOf(metaAnalyse(rows(3)).method)).toBe('range');
    expect(limitsKindOf(metaAnalyse(rows(11), { resamples: 99 }).method)).toBe('95 % CI');
    expect(limitsTag('range')).toBe('(range)');
    expect(limitsTag('none')).toBe('');
  });
});
