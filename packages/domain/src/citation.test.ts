import { describe, expect, it } from 'vitest';
import { formatCitation, formatShortCitation } from './citation.js';

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

describe('formatCitation: authors in the Vancouver way', () => {
  const many =
    'Aarsand AK, Fernandez-Calle P, Webster C, Coskun A, Gonzales-Lao E, Diaz-Garzon J, Jonker N, Simon M';
  it.each([
    [
      'missing authors',
      { author: '', title: 'T', journal: 'J', year: 2000, volume: 1, pages: '1-2' },
      'T. J 2000;1:1-2.',
    ],
    ['one author', { author: 'Doe J', title: 'T', journal: 'J', year: 2000 }, 'Doe J. T. J 2000.'],
    [
      'six authors are all listed',
      { author: 'A B, C D, E F, G H, I J, K L', title: 'T', journal: 'J', year: 2000 },
      'A B, C D, E F, G H, I J, K L. T. J 2000.',
    ],
    [
      'more than six: the first six and "et al."',
      { author: many, title: 'T', journal: 'J', year: 2000 },
      'Aarsand AK, Fernandez-Calle P, Webster C, Coskun A, Gonzales-Lao E, Diaz-Garzon J, et al. T. J 2000.',
    ],
    [
      'names separated by semicolons',
      { author: 'A B; C D; E F; G H; I J; K L; M N', title: 'T', year: 2000 },
      'A B, C D, E F, G H, I J, K L, et al. T. 2000.',
    ],
    [
      'a list that is not "Surname Initials" stays as written',
      { author: 'Smith, J., Jones, K., Li, X., Wu, Y., Ng, Z., Ho, A., Ma, B.', title: 'T', year: 2000 },
      'Smith, J., Jones, K., Li, X., Wu, Y., Ng, Z., Ho, A., Ma, B. T. 2000.',
    ],
    ['missing year, volume and pages', { author: 'Doe J', title: 'T', journal: 'J' }, 'Doe J. T. J.'],
    ['only a title', { title: 'T' }, 'T.'],
    ['nothing at all', {}, ''],
  ])('%s', (_name, parts, expected) => {
    const text = formatCitation(parts);
    expect(text).toBe(expected);
    expect(text).not.toMatch(/\.\.|;0:|N\/A|n\.d\.|Unknown/);
  });
});

describe('formatShortCitation (pickers and table cells)', () => {
  it.each([
    [{ author: 'Ricós C, Alvarez V', year: 1999, title: 'Databases' }, 'Ricós C et al. (1999) Databases'],
    [{ author: 'Doe J', year: 2010, title: 'T' }, 'Doe J (2010) T'],
    [{ author: null, year: 2010, title: 'T' }, 'T (2010)'],
    [{ author: 'Unknown Author', year: null, title: 'T' }, 'T'],
    [{ author: 'Doe J, et al.', year: null, title: 'T' }, 'Doe J et al. T'],
  ])('%j → %s', (parts, expected) => {
    const text = formatShortCitation(parts);
    expect(text).toBe(expected);
    expect(text).not.toMatch(/n\.d\.|Unknown/);
  });
});
