import type { Dataset } from '@bvdb/contract';
import { describe, expect, it } from 'vitest';
import { inDefaultOrder, pageFromParam, pageInDefaultOrder } from './spec-page';

const ds = (id: number, name: string) => ({ id, analyte_display_name: name }) as Dataset;

describe('pageFromParam', () => {
  it.each([
    [null, 1],
    ['', 1],
    ['2', 2],
    ['0', 1],
    ['-3', 1],
    ['1.5', 1],
    ['abc', 1],
    ['40', 40],
  ])('%s → %i', (value, page) => expect(pageFromParam(value)).toBe(page));
});

describe('the default order of the all-datasets table', () => {
  it('is name descending without regard to case, ties in list order', () => {
    const list = [ds(1, 'albumin'), ds(2, 'Urea'), ds(3, 'Albumin'), ds(4, 'urea'), ds(5, 'Creatinine')];
    expect(inDefaultOrder(list).map((d) => d.id)).toEqual([2, 4, 5, 1, 3]);
  });

  it('pages by 10 and is empty past the last page', () => {
    const list = Array.from({ length: 23 }, (_, i) => ds(i + 1, `M${String(100 - i).padStart(3, '0')}`));
    expect(pageInDefaultOrder(list, 3).map((d) => d.id)).toEqual([21, 22, 23]);
    expect(pageInDefaultOrder(list, 4)).toEqual([]);
  });
});
