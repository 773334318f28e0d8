import { describe, expect, it } from 'vitest';
import { formatCitation } from './citation.js';

describe('formatCitation (Vancouver order: authors. Title. Journal Year;Volume:Pages.)', () => {
  it.each([
    [
      'every part',
      {
        author: 'Ricós C, Alvarez V, Cava F',
        title: 'Current databases on biological variation',
        journal: 'Scand J Clin Lab Invest',
        year: 1999,
        volume: 59,
        pages: '491-500',
      },
      'Ricós C, Alvarez V, Cava F. Current databases on biological variation. Scand J Clin Lab Invest 1999;59:491-500.',
    ],
    [
      'no author, trailing full stops not doubled',
      { author: null, title: 'A title.', journal: 'Clin Chem.', year: 2001, volume: 47, pages: '12-8' },
      'A title. Clin Chem 2001;47:12-8.',
    ],
    [
      'authors ending in "et al." keep one full stop',
      { author: 'Smith A, et al.', title: 'T', journal: 'J', year: 2000, volume: 1, pages: '1' },
      'Smith A, et al. T. J 2000;1:1.',
    ],
    [
      'volume 0 and pages N/A are unknowns, left out',
      { author: 'Doe J', title: 'T', journal: 'J', year: 2010, volume: 0, pages: 'N/A' },
      'Doe J. T. J 2010.',
    ],
    [
      'no year: no "(n.d.)"',
      { author: 'Doe J', title: 'T', journal: 'J', year: null, volume: 3, pages: '5-9' },
      'Doe J. T. J 3:5-9.',
    ],
    [
      'pages without volume',
      { author: 'Doe J', title: 'T', journal: 'J', year: 2010, volume: null, pages: '5-9' },
      'Doe J. T. J 2010:5-9.',
    ],
    [
      'the read API placeholders are not citation parts',
      {
        author: 'Unknown Author',
        title: 'Unknown Title',
        journal: 'Unknown Journal',
        year: null,
        volume: 0,
        pages: 'N/A',
      },
      '',
    ],
    [
      'a title ending in a question mark takes no full stop',
      { author: 'Doe J', title: 'Is it stable?', journal: 'J', year: 2010 },
      'Doe J. Is it stable? J 2010.',
    ],
    [
      'extra whitespace collapsed',
      { author: '  Doe   J ', title: ' T ', journal: null, year: 2010 },
      'Doe J. T. 2010.',
    ],
  ])('%s', (_name, parts, expected) => {
    const text = formatCitation(parts);
    expect(text).toBe(expected);
    expect(text).not.toMatch(/\.\.|;0:|N\/A|n\.d\./);
  });
});
