import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';
import {
  formatCi,
  formatDateDmy,
  formatDateTimeDmy,
  formatDateLong,
  formatMetaValue,
  formatSamplingInterval,
  parseAlternateNames,
  pickSubscript,
} from './format.js';
import { formatFixed, roundHalfUp } from './rounding.js';

describe('rounding half away from zero', () => {
  it.each([
    [0.05, 1, 0.1],
    [1.005, 2, 1.01],
    [2.675, 2, 2.68],
    [-1.25, 1, -1.3],
    [1.45, 1, 1.5],
    [8.1346, 1, 8.1],
    [19.419253, 4, 19.4193],
    [0, 2, 0],
  ])('roundHalfUp(%s, %s) = %s', (v, d, expected) => {
    expect(roundHalfUp(v, d)).toBe(expected);
  });
  it('formatFixed always shows the decimals', () => {
    expect(formatFixed(4, 1)).toBe('4.0');
    expect(formatFixed(17.5308, 1)).toBe('17.5');
    expect(formatFixed(-0.04, 1)).toBe('0.0');
    expect(formatFixed(1.005, 2)).toBe('1.01');
  });
});

describe('display rules', () => {
  it('meta values: 1 decimal, "NA" for 0', () => {
    expect(formatMetaValue(4.44)).toBe('4.4');
    expect(formatMetaValue(0)).toBe('NA');
    expect(formatMetaValue(null)).toBe('NA');
  });
  it('CI: empty → 0, non-number → N/A, else 2 decimals', () => {
    expect(formatCi('')).toBe('0.00');
    expect(formatCi(null)).toBe('0.00');
    expect(formatCi('abc')).toBe('N/A');
    expect(formatCi(3.14159)).toBe('3.14');
    expect(formatCi('2.675')).toBe('2.68');
  });
  it('dates', () => {
    expect(formatDateDmy('2026-01-05T10:00:00Z')).toBe('5/1/2026');
    expect(formatDateLong('2026-11-22T10:00:00Z')).toBe('November 22nd 2026');
    expect(formatDateLong('2026-11-11T10:00:00Z')).toBe('November 11th 2026');
    expect(formatDateLong('2026-03-01T00:00:00Z')).toBe('March 1st 2026');
    expect(formatDateLong('2026-03-23T00:00:00Z')).toBe('March 23rd 2026');
    expect(formatDateDmy('not a date')).toBe('');
    // The change history (issue 27.10): D/M/YYYY and a 24-hour UTC time, never a US date.
    expect(formatDateTimeDmy('2026-11-03T14:07:00Z')).toBe('3/11/2026 14:07 UTC');
    expect(formatDateTimeDmy('not a date')).toBe('');
  });
  it('sampling interval', () => {
    expect(formatSamplingInterval(1, 'Week')).toBe('1 per week');
    expect(formatSamplingInterval(0.5, 'Week')).toBe('0.5 per week');
    expect(formatSamplingInterval(null, 'Week')).toBe('No Sampling Intervals');
    expect(formatSamplingInterval(2, '')).toBe('No Sampling Intervals');
  });
  it('alternate names in every stored form', () => {
    expect(parseAlternateNames('["Creat", "Crea"]')).toEqual(['Creat', 'Crea']);
    expect(parseAlternateNames('{Creat,Crea}')).toEqual(['Creat', 'Crea']);
    expect(parseAlternateNames('Creat; Crea; creat')).toEqual(['Creat', 'Crea']);
    expect(parseAlternateNames(null)).toEqual([]);
    expect(parseAlternateNames(['a', ' b '])).toEqual(['a', 'b']);
  });
  it('pickSubscript takes the first non-empty value in reverse key order', () => {
    expect(pickSubscript({ a: 'x', b: '', c: null })).toBe('x');
    expect(pickSubscript({ a: 'x', b: 'y' })).toBe('y');
    expect(pickSubscript({})).toBeUndefined();
  });
});

describe('CSV reader', () => {
  it('handles quotes, escaped quotes and every row break', () => {
    expect(parseCsv('a,b\r\n"x, y","say ""hi"""\n3,4\r5,6')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['3', '4'],
      ['5', '6'],
    ]);
    expect(parseCsv('a\n"multi\nline"\n')).toEqual([['a'], ['multi\nline']]);
    expect(parseCsv('a,,c\n')).toEqual([['a', '', 'c']]);
  });
});
