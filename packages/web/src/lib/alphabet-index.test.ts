import { describe, expect, it } from 'vitest';
import { groupByLetter, indexLetterOf, letterSectionId } from './alphabet-index';

describe('A–Z index', () => {
  it('files a name under its first letter, accents dropped, the rest under #', () => {
    expect(indexLetterOf('alanine aminotransferase')).toBe('A');
    expect(indexLetterOf('Ésterase')).toBe('E');
    expect(indexLetterOf('25-OH vitamin D')).toBe('#');
    expect(indexLetterOf('')).toBe('#');
  });
  it('groups in A–Z order with # last, keeping the order inside a group', () => {
    const groups = groupByLetter(['Sodium', '17-OH progesterone', 'Albumin', 'Amylase', 'Zinc'], (n) => n);
    expect(groups).toEqual([
      ['A', ['Albumin', 'Amylase']],
      ['S', ['Sodium']],
      ['Z', ['Zinc']],
      ['#', ['17-OH progesterone']],
    ]);
    expect(letterSectionId('#')).toBe('measurands-other');
  });
});
