import type { MetaRecord } from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import {
  estimateAnchorId,
  estimatePermalinkPath,
  estimateTargetOf,
  findEstimate,
} from './estimate-permalink';

const meta = (id: number, matrix: string, var_type: ':cvi' | ':cvg', median: number) =>
  ({ id, matrix, var_type, median }) as MetaRecord;

describe('estimate permalinks', () => {
  it('are keyed on measurand, matrix and type', () => {
    const path = estimatePermalinkPath(7, 'Serum/plasma', 'CVI');
    expect(path).toBe('/analytes/7?matrix=Serum%2Fplasma&type=CVI');
    expect(estimateTargetOf(new URL(`http://x${path}`).searchParams)).toEqual({
      matrix: 'Serum/plasma',
      type: 'CVI',
    });
  });

  it('name the same estimate after a recomputation gave it another id', () => {
    const target = estimateTargetOf(new URLSearchParams('matrix=serum&type=cvg'))!;
    const before = [
      meta(1, 'Serum', ':cvi', 4.5),
      meta(2, 'Serum', ':cvg', 14),
      meta(3, 'Urine', ':cvg', 30),
    ];
    const after = [
      meta(41, 'Urine', ':cvg', 31),
      meta(40, 'Serum', ':cvg', 15),
      meta(39, 'Serum', ':cvi', 4.6),
    ];
    expect(findEstimate(before, target)?.id).toBe(2);
    expect(findEstimate(after, target)?.id).toBe(40);
  });

  it('ignore a query that names no estimate', () => {
    expect(estimateTargetOf(new URLSearchParams('matrix=Serum'))).toBeNull();
    expect(estimateTargetOf(new URLSearchParams('matrix=Serum&type=CVA'))).toBeNull();
    expect(estimateTargetOf(new URLSearchParams('type=CVI'))).toBeNull();
  });

  it('give each row an id a fragment can name', () => {
    expect(estimateAnchorId('Serum/plasma', 'CVI')).toBe('estimate-serum-plasma-cvi');
    expect(estimateAnchorId('Orina de 24 h é', 'CVG')).toBe('estimate-orina-de-24-h-e-cvg');
  });
});
