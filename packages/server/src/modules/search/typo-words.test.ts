import { describe, expect, it } from 'vitest';
import { editDistance } from './analyte-index/edit-distance.js';
import { TypoWords, type TypoEntry } from './typo-words.js';

/** Queries longer than this compare prefixes word by word (their prefixes are not gathered). */
const MAX_TYPO_PREFIX = 40;

/**
 * The typo search as it was before the trie (decision 068's, verbatim): the banded distance against
 * every distinct word of a near length and every distinct prefix of the query's length. The trie
 * must answer exactly as it does.
 */
class ScanTypoWords {
  /** Distinct words by length, each with its entries in table order. */
  private byLength = new Map<number, { word: string; entries: number[] }[]>();
  /** Distinct prefixes of the words longer than a length, by that length (filled when asked). */
  private prefixes = new Map<number, Map<string, number[]>>();
  private words: [string, number[]][];

  constructor(entries: readonly (TypoEntry | undefined)[]) {
    const owners = new Map<string, number[]>();
    entries.forEach((e, i) => {
      if (!e) return;
      for (const w of new Set([...e.nameWords, ...e.otherWords, e.name])) {
        const list = owners.get(w);
        if (list) list.push(i);
        else owners.set(w, [i]);
      }
    });
    this.words = [...owners];
    for (const [word, list] of this.words) {
      const same = this.byLength.get(word.length);
      if (same) same.push({ word, entries: list });
      else this.byLength.set(word.length, [{ word, entries: list }]);
    }
  }

  private prefixesOf(length: number): Map<string, number[]> {
    let found = this.prefixes.get(length);
    if (!found) {
      found = new Map();
      for (const [word, list] of this.words) {
        if (word.length <= length) continue;
        const p = word.slice(0, length);
        const into = found.get(p);
        if (into) into.push(...list);
        else found.set(p, [...list]);
      }
      this.prefixes.set(length, found);
    }
    return found;
  }

  /**
   * Each entry with a word within `tolerance` edits of `q` (the whole word, or its first
   * `q.length` characters) and its smallest distance: the same as comparing every word of every
   * entry.
   */
  closest(q: string, tolerance: number): Map<number, number> {
    const best = new Map<number, number>();
    const note = (list: number[], d: number) => {
      if (d > tolerance) return;
      for (const i of list) if (!(best.get(i)! <= d)) best.set(i, d);
    };
    for (let n = Math.max(1, q.length - tolerance); n <= q.length + tolerance; n++)
      for (const { word, entries } of this.byLength.get(n) ?? [])
        note(entries, editDistance(q, word, tolerance));
    if (q.length <= MAX_TYPO_PREFIX)
      for (const [p, list] of this.prefixesOf(q.length)) note(list, editDistance(q, p, tolerance));
    else
      for (const [word, list] of this.words)
        if (word.length > q.length) note(list, editDistance(q, word.slice(0, q.length), tolerance));
    return best;
  }
}

/** A seeded generator: the same entries and queries on every run. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const split = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/**
 * Entries as the index makes them, from a few stems over a small alphabet (many shared prefixes and
 * near misses, as "x (copy k)" at 100× the demo), some with other names; a few slots empty (removed).
 */
function entriesOf(next: () => number, count: number): (TypoEntry | undefined)[] {
  const letters = 'abcde';
  const stem = (n: number) =>
    Array.from({ length: n }, () => letters[Math.floor(next() * letters.length)]).join('');
  const stems = Array.from({ length: 12 }, () => stem(2 + Math.floor(next() * 9)));
  return Array.from({ length: count }, () => {
    if (next() < 0.05) return undefined;
    const base = stems[Math.floor(next() * stems.length)]!;
    const name =
      next() < 0.5
        ? `${base} (copy ${Math.floor(next() * 30)})`
        : next() < 0.5
          ? `${base}${stem(Math.floor(next() * 4))}`
          : base;
    const others = next() < 0.4 ? [stem(1 + Math.floor(next() * 12)), `${base}-${stem(2)}`] : [];
    return { name, nameWords: split(name), otherWords: others.flatMap(split) };
  });
}

/** A word of the entries with up to three edits (drop, insert, replace, swap), or a random one. */
function queryOf(next: () => number, entries: (TypoEntry | undefined)[]): string {
  const present = entries.filter((e): e is TypoEntry => e !== undefined);
  const e = present[Math.floor(next() * present.length)]!;
  const pool = [e.name, ...e.nameWords, ...e.otherWords];
  let w = pool[Math.floor(next() * pool.length)]!;
  if (next() < 0.3) w = w.slice(0, 1 + Math.floor(next() * w.length));
  if (next() < 0.1)
    w = Array.from({ length: 1 + Math.floor(next() * 15) }, () => 'abcdef (1'[Math.floor(next() * 9)]).join(
      '',
    );
  const chars = [...w];
  for (let k = Math.floor(next() * 4); k > 0; k--) {
    const at = Math.floor(next() * (chars.length + 1));
    const op = next();
    if (op < 0.25) chars.splice(at, 1);
    else if (op < 0.5) chars.splice(at, 0, 'abcdef 1'[Math.floor(next() * 8)]!);
    else if (op < 0.75) chars[at] = 'f';
    else if (at + 1 < chars.length) [chars[at], chars[at + 1]] = [chars[at + 1]!, chars[at]!];
  }
  return chars.join('');
}

const sorted = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]);

describe('TypoWords (the typo search in a trie, decision 074)', () => {
  it('answers as the scan of every word and prefix, over 40 seeded catalogues and 6,000 queries', () => {
    const next = random(72);
    let found = 0;
    for (let c = 0; c < 40; c++) {
      const entries = entriesOf(next, 20 + Math.floor(next() * 300));
      const trie = new TypoWords(entries);
      const scan = new ScanTypoWords(entries);
      for (let n = 0; n < 150; n++) {
        const q = queryOf(next, entries);
        const tolerance = 1 + Math.floor(next() * 3);
        const expected = sorted(scan.closest(q, tolerance));
        found += expected.length;
        expect(sorted(trie.closest(q, tolerance)), `"${q}" within ${tolerance}`).toEqual(expected);
      }
    }
    // The queries find something most of the time: the equality is not of empty answers.
    expect(found).toBeGreaterThan(50_000);
  });

  it('answers long queries (past the gathered prefixes) and the empty one as the scan', () => {
    const next = random(7);
    const entries = entriesOf(next, 200);
    const long = 'abcdeabcde'.repeat(5);
    entries.push({ name: `${long}x (copy 1)`, nameWords: [`${long}x`, 'copy', '1'], otherWords: [] });
    const trie = new TypoWords(entries);
    const scan = new ScanTypoWords(entries);
    for (const q of [long, `${long.slice(0, 20)}zz${long.slice(22)}`, `${long}x (cpoy`, '', 'a'])
      for (const tolerance of [1, 2])
        expect(sorted(trie.closest(q, tolerance)), `"${q}"`).toEqual(sorted(scan.closest(q, tolerance)));
    expect(trie.closest(`${long.slice(0, 20)}zz${long.slice(22)}`, 2).size).toBeGreaterThan(0);
  });

  it('finds a misspelt copy by its whole name and a cut name by its prefix', () => {
    const entries: TypoEntry[] = [
      { name: 'creatinine (copy 12)', nameWords: ['creatinine', 'copy', '12'], otherWords: [] },
      { name: 'creatine kinase', nameWords: ['creatine', 'kinase'], otherWords: ['ck'] },
      { name: 'albumin', nameWords: ['albumin'], otherWords: [] },
    ];
    const trie = new TypoWords(entries);
    expect(sorted(trie.closest('creatinine (copy 1zz', 2))).toEqual([[0, 2]]);
    expect(sorted(trie.closest('craetine', 2))).toEqual([
      [0, 2],
      [1, 1],
    ]);
    expect(sorted(trie.closest('albmin', 1))).toEqual([[2, 1]]);
    expect(trie.closest('zzzzzz', 1).size).toBe(0);
  });
});
