import type { analytes } from '../../db/schema.js';

type AnalyteRow = typeof analytes.$inferSelect;

/** Lower-case, accents removed: "Créatinine" and "creatinine" are the same search. */
function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

const words = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Damerau–Levenshtein (optimal string alignment) distance, stopped early past `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev2 = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev2.splice(0, prev2.length, ...prev);
    prev = cur;
  }
  return prev[b.length]!;
}

interface Entry {
  id: number;
  display_name: string;
  name: string;
  nameWords: string[];
  others: string[];
  otherWords: string[];
}

/**
 * An in-memory index of measurand names: small enough (thousands) to scan on every keystroke in
 * well under a millisecond, and rebuilt only when the data changes.
 */
export class AnalyteIndex {
  private entries: Entry[];

  constructor(rows: AnalyteRow[]) {
    this.entries = rows.map((a) => {
      const others = [a.fullName ?? '', ...a.alternateNames, a.loinc ?? '', a.npu ?? '', a.snomedCt ?? '']
        .map(normalise)
        .filter(Boolean);
      const name = normalise(a.displayName);
      return {
        id: a.id,
        display_name: a.displayName,
        name,
        nameWords: words(name),
        others,
        otherWords: others.flatMap(words),
      };
    });
  }

  /**
   * Ranked matches: exact name, name prefix, word start in the name, then the same on other names
   * (full name, alternate names, codes), and only then substrings; typos only when nothing matches.
   */
  search(query: string, limit = 10): { id: number; display_name: string }[] {
    const q = normalise(query);
    if (!q) return [];
    const qWords = words(q);
    const scored: { e: Entry; score: number }[] = [];
    for (const e of this.entries) {
      // Starts before substrings: a name or other name that begins with the query, or has a word
      // that does ("creat" → Creatinine, Urine albumin/creatinine ratio), always outranks one that
      // merely contains it ("Pancreatic amylase").
      const wordStarts = (ws: string[]) =>
        qWords.length > 0 && qWords.every((w) => ws.some((x) => x.startsWith(w)));
      let score = Infinity;
      if (e.name === q) score = 0;
      else if (e.name.startsWith(q)) score = 1;
      else if (wordStarts(e.nameWords)) score = 2;
      else if (e.others.some((o) => o === q)) score = 3;
      else if (e.others.some((o) => o.startsWith(q))) score = 4;
      else if (wordStarts(e.otherWords)) score = 5;
      else if (e.name.includes(q)) score = 6;
      else if (e.others.some((o) => o.includes(q))) score = 7;
      if (score < Infinity) scored.push({ e, score });
    }
    if (scored.length === 0 && q.length >= 3) {
      const tolerance = q.length >= 7 ? 2 : 1;
      for (const e of this.entries) {
        let best = Infinity;
        for (const w of [...e.nameWords, ...e.otherWords, e.name]) {
          const d = Math.min(
            editDistance(q, w, tolerance),
            w.length > q.length ? editDistance(q, w.slice(0, q.length), tolerance) : Infinity,
          );
          best = Math.min(best, d);
        }
        if (best <= tolerance) scored.push({ e, score: 10 + best });
      }
    }
    scored.sort(
      (a, b) => a.score - b.score || a.e.name.length - b.e.name.length || a.e.name.localeCompare(b.e.name),
    );
    return scored.slice(0, limit).map(({ e }) => ({ id: e.id, display_name: e.display_name }));
  }
}
