import { describe, expect, it } from 'vitest';
import { describeResultsReading, readResultsList } from './results-list.js';

describe('readResultsList', () => {
  it.each([
    ['78, 82, 80', [78, 82, 80], 'separated by commas'],
    ['78,82,80', [78, 82, 80], 'separated by commas'],
    ['78 82 80', [78, 82, 80], 'separated by spaces'],
    ['78,5 80,1', [78.5, 80.1], 'separated by spaces, decimal commas'],
    ['78,5; 80,1', [78.5, 80.1], 'separated by semicolons or lines, decimal commas'],
    ['78.5\n80.1\n79', [78.5, 80.1, 79], 'separated by semicolons or lines'],
    ['  81.2  ', [81.2], 'one value'],
  ])('%j → %j (%s)', (text, values, format) => {
    expect(readResultsList(text)).toEqual({ ok: true, values, format });
  });

  it('names the entry it cannot read', () => {
    expect(readResultsList('78, abc, 80')).toEqual({ ok: false, message: '"abc" is not a number.' });
    expect(readResultsList('   ')).toEqual({ ok: false, message: 'Enter at least one previous result.' });
  });

  it('says how it read the box', () => {
    const r = readResultsList('78,5 80,1');
    if (!r.ok) throw new Error('expected a reading');
    expect(describeResultsReading(r)).toBe(
      'Read 2 results (separated by spaces, decimal commas): 78.5; 80.1',
    );
  });
});
