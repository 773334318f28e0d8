import { describe, expect, it } from 'vitest';
import { headlineMatrixOf, type HeadlineCandidate } from './headline-matrix.js';

const meta = (matrixKey: number, varType: ':cvi' | ':cvg', numberUsed: number, median: number | null = 5) =>
  ({ matrixKey, varType, numberUsed, median }) satisfies HeadlineCandidate;

describe('headlineMatrixOf', () => {
  it('prefers a matrix with both CVI and CVG over one with more studies of one type', () => {
    // 25-hydroxyvitamin D: serum has CVI only (many studies), plasma has both.
    expect(headlineMatrixOf([meta(1, ':cvi', 12), meta(2, ':cvi', 2), meta(2, ':cvg', 2)])).toEqual({
      matrixKey: 2,
      consolidated: false,
    });
  });

  it('among matrices with both estimates, takes the one with the most studies', () => {
    const metas = [meta(1, ':cvi', 2), meta(1, ':cvg', 1), meta(3, ':cvi', 4), meta(3, ':cvg', 3)];
    expect(headlineMatrixOf(metas)?.matrixKey).toBe(3);
  });

  it('breaks ties by the lowest matrix id, matrices before consolidations', () => {
    expect(headlineMatrixOf([meta(7, ':cvi', 2), meta(4, ':cvi', 2)])?.matrixKey).toBe(4);
    const withConsolidation = [{ ...meta(1, ':cvi', 2), consolidated: true }, meta(9, ':cvi', 2)];
    expect(headlineMatrixOf(withConsolidation)).toEqual({ matrixKey: 9, consolidated: false });
  });

  it('ignores results without a median and answers null when nothing is estimated', () => {
    expect(headlineMatrixOf([meta(1, ':cvi', 3, null)])).toBeNull();
    expect(headlineMatrixOf([])).toBeNull();
    expect(headlineMatrixOf([meta(1, ':cvi', 9, null), meta(2, ':cvg', 1)])?.matrixKey).toBe(2);
  });
});
