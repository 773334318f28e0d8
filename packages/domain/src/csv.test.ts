import { describe, expect, it } from 'vitest';
import { detectDelimiter } from './csv.js';

describe('detectDelimiter: from the content, whatever the file is called (issue 42.6)', () => {
  it.each([
    ['tab, decimal commas', 'pat\ttime.point\trep\tmeas\n1\t1\t1\t5,1\n1\t1\t2\t5,3\n', '\t'],
    ['semicolon, decimal commas', 'subject;sample;value\nS1;1;5,1\nS1;2;4,9\n', ';'],
    ['comma, decimal points', 'subject,sample,value\nS1,1,5.1\nS1,2,4.9\n', ','],
    ['comma with a quoted semicolon', 'subject,sample,value,note\nS1,1,5.1,"a;b"\n', ','],
    ['a byte-order mark and CRLF', '\ufeffa\tb\r\n1\t2\r\n', '\t'],
    ['one column', 'value\n5\n6\n', ','],
    ['empty', '', ','],
  ])('%s', (_, text, expected) => {
    expect(detectDelimiter(text)).toBe(expected);
  });
});
