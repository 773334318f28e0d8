import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.js';

/** The textbook optimal-string-alignment table, whole: what the banded, early-stopping one must equal. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

/** A seeded generator: the same strings on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('editDistance (the typo search, decision 068)', () => {
  it('equals the whole table up to `max`, and says `max + 1` past it, over 20,000 seeded pairs', () => {
    const next = random(68);
    const word = (n: number) => Array.from({ length: n }, () => 'abcde'[Math.floor(next() * 5)]).join('');
    const edit = (w: string) => {
      const chars = [...w];
      for (let k = Math.floor(next() * 4); k > 0; k--) {
        const at = Math.floor(next() * (chars.length + 1));
        const op = next();
        if (op < 0.25) chars.splice(at, 1);
        else if (op < 0.5) chars.splice(at, 0, 'abcdef'[Math.floor(next() * 6)]!);
        else if (op < 0.75) chars[at] = 'f';
        else if (at + 1 < chars.length) [chars[at], chars[at + 1]] = [chars[at + 1]!, chars[at]!];
      }
      return chars.join('');
    };
    for (let n = 0; n < 20_000; n++) {
      const a = word(Math.floor(next() * 14));
      const b = next() < 0.7 ? edit(a) : word(Math.floor(next() * 14));
      const max = 1 + Math.floor(next() * 3);
      const d = reference(a, b);
      expect(editDistance(a, b, max), `${a} ~ ${b} within ${max}`).toBe(d <= max ? d : max + 1);
    }
  });

  it('finds typos in long names: a swap, a missing and a wrong letter', () => {
    expect(editDistance('alanine aminotransferase', 'alanine aminotransfrease', 2)).toBe(1);
    expect(editDistance('alanine aminotransferase', 'alanine aminotransferse', 2)).toBe(1);
    expect(editDistance('alanine aminotransferase', 'alanine aminotransferazz', 2)).toBe(2);
    expect(editDistance('alanine aminotransferase', 'aspartate aminotransferase', 2)).toBe(3);
  });
});
