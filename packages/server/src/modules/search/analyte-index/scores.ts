import type { Entry } from './entry.js';

// How well an entry matches a query (decision 042): the scores 0–7 `AnalyteIndex.search` orders by.

/** Edits a typo may make: one, two from seven characters on. */
export const typoTolerance = (q: string) => (q.length >= 7 ? 2 : 1);

/** Whether every query word starts one of `ws` (plain loops: called for every candidate of a search). */
export function everyWordStarts(qWords: readonly string[], ws: readonly string[]): boolean {
  if (qWords.length === 0) return false;
  for (const w of qWords) {
    let found = false;
    for (const x of ws)
      if (x.startsWith(w)) {
        found = true;
        break;
      }
    if (!found) return false;
  }
  return true;
}

/** Whether one of `texts` is `q` (0), starts with it (1) or holds it (2); 3 for none. */
export function bestHold(texts: readonly string[], q: string): number {
  let best = 3;
  for (const t of texts) {
    if (t === q) return 0;
    if (best > 1 && t.startsWith(q)) best = 1;
    else if (best > 2 && t.includes(q)) best = 2;
  }
  return best;
}

/** Starts before substrings: see `AnalyteIndex.search`. */
export function scoreOf(e: Entry, q: string, qWords: string[]): number {
  if (e.name === q) return 0;
  if (e.name.startsWith(q)) return 1;
  if (everyWordStarts(qWords, e.nameWords)) return 2;
  const other = bestHold(e.others, q);
  if (other === 0) return 3;
  if (other === 1) return 4;
  if (everyWordStarts(qWords, e.otherWords)) return 5;
  if (e.name.includes(q)) return 6;
  if (other === 2) return 7;
  return Infinity;
}

/** The score of an entry known to hold no start of the query (`AnalyteIndex.startsOf`): 6, 7 or none. */
export function substringScore(e: Entry, q: string): number {
  if (e.name.includes(q)) return 6;
  for (const o of e.others) if (o.includes(q)) return 7;
  return Infinity;
}

/** The kinds of start, best first: a name, a name word, another name, a word of another name. */
export type StartKind = 'name' | 'nameWord' | 'other' | 'otherWord';

/**
 * The score of a query of one word on an entry first met through a key of `kind` starting with it
 * (`exact`: the key is the query), the kinds read best first and each in key order (decision 076):
 * the same as `scoreOf`, without reading the entry. Met first through a name, the name starts with
 * the query (0 if it is the query, else 1); through a name word, the name does not start with it but
 * the query's one word starts a name word (2); through another name, neither, and its first key is
 * its lowest, the query itself if it has it (3, else 4); through another name's word, 5.
 */
export function startScore(kind: StartKind, exact: boolean): number {
  if (kind === 'name') return exact ? 0 : 1;
  if (kind === 'nameWord') return 2;
  if (kind === 'other') return exact ? 3 : 4;
  return 5;
}

/** The lowest score a start (of the name, a name word, another name or its word) can have: 0–5. */
export const LAST_START_SCORE = 5;
