import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error.js';
import { sheetFromDelimitedText } from './delimited-text.js';

const read = (text: string, delimiter: ',' | ';' | '\t' = ',', maxRows = 10) =>
  sheetFromDelimitedText(text, { delimiter, maxRows, emptyMessage: 'Send a header row' });

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).message;
  }
  throw new Error('not refused');
};

// The one reader of pasted tables behind the menu (decision 059) and the estimations (decision 054).
describe('sheetFromDelimitedText', () => {
  it('drops a BOM, trims the headers, pads short rows and leaves out blank rows, keeping line numbers', () => {
    const { sheet, records } = read('\uFEFFname , cva\r\nSodium,0.5\n\n,\nGlucose\r');
    expect(sheet.headers).toEqual(['name', 'cva']);
    expect(sheet.rows).toEqual([
      { row: 2, cells: ['Sodium', '0.5'] },
      { row: 5, cells: ['Glucose', null] },
    ]);
    expect(records).toBe(4);
  });

  it('reads semicolons, and a stray quote in TSV as text (a spreadsheet pastes 12" as it is)', () => {
    expect(read('a;b\n1;2', ';').sheet.rows[0]!.cells).toEqual(['1', '2']);
    expect(read('name\tnote\nTube\t12" long', '\t').sheet.rows[0]!.cells).toEqual(['Tube', '12" long']);
  });

  it('parses no more than the limit and one row, and says how many it read', () => {
    const text = ['h', ...Array.from({ length: 50 }, (_, i) => String(i))].join('\n');
    expect(read(text, ',', 10).records).toBe(11);
  });

  it('answers 400 with a message for NUL bytes, no header, or broken quoting', () => {
    expect(refusal(() => read('a\u0000b'))).toBe('The body is not text (it holds NUL bytes)');
    expect(refusal(() => read(' , \n1,2'))).toBe('Send a header row');
    expect(refusal(() => read('a,b\n"1,2'))).toMatch(/^The CSV text could not be read: /);
  });
});
