import type { analytes } from '../../db/schema.js';
import { keyBelowScore, NAME_ORDER, NameOrder, positionIn } from './name-order.js';
import { TypoWords } from './typo-words.js';

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

/** Three rows of the distance table, grown as needed and reused: a typo search makes no garbage. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Damerau–Levenshtein (optimal string alignment) distance when it is at most `max`, otherwise
 * `max + 1`. Only the band of cells within `max` of the diagonal is computed (a path outside it
 * costs more than `max`) in typed rows kept between calls: a typo search at 100× the demo compares a
 * query with thousands of words on the event loop (decision 068).
 */
export function editDistance(a: string, b: string, max: number): number {
  const m = a.length;
  const n = b.length;
  const far = max + 1;
  if (Math.abs(m - n) > max) return far;
  if (rows[0]!.length < n + 2) {
    const size = (n + 2) * 2;
    rows = [new Int32Array(size), new Int32Array(size), new Int32Array(size)];
  }
  let prev2 = rows[0]!;
  let prev = rows[1]!;
  let cur = rows[2]!;
  for (let j = 0; j <= Math.min(n, max + 1); j++) prev[j] = Math.min(j, far);
  for (let i = 1; i <= m; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(n, i + max);
    cur[lo - 1] = lo === 1 ? Math.min(i, far) : far;
    if (hi < n) cur[hi + 1] = far;
    let rowMin = cur[lo - 1]!;
    const ai = a.charCodeAt(i - 1);
    const aPrev = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = lo; j <= hi; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      if (ins < v) v = ins;
      const sub = prev[j - 1]! + (ai === bj ? 0 : 1);
      if (sub < v) v = sub;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && aPrev === bj) {
        const swap = prev2[j - 2]! + 1;
        if (swap < v) v = swap;
      }
      if (v > far) v = far;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return far;
    const spare = prev2;
    prev2 = prev;
    prev = cur;
    cur = spare;
  }
  return Math.min(prev[n]!, far);
}

interface Entry {
  id: number;
  display_name: string;
  name: string;
  nameWords: string[];
  others: string[];
  otherWords: string[];
}

/** Distinct keys in code-unit order with the entries each came from: the entries whose key starts with a text. */
class SortedKeys {
  private keys: string[];
  private owners: number[][];

  constructor(pairs: [string, number][]) {
    const byKey = new Map<string, number[]>();
    for (const [key, owner] of pairs) {
      const list = byKey.get(key);
      if (list) list.push(owner);
      else byKey.set(key, [owner]);
    }
    // The engine's own sort of strings (code-unit order) without a comparator called per pair: most
    // of building the index at 100× the demo went to that comparator.
    this.keys = [...byKey.keys()].sort();
    this.owners = this.keys.map((k) => byKey.get(k)!);
  }

  /** The position of the first key not below `text`. */
  private lowerBound(text: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < text) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** One entry's keys in, in place (decision 066: a write changes its measurands' keys only). */
  add(keys: readonly string[], owner: number): void {
    for (const key of new Set(keys)) {
      const at = this.lowerBound(key);
      if (this.keys[at] === key) this.owners[at]!.push(owner);
      else {
        this.keys.splice(at, 0, key);
        this.owners.splice(at, 0, [owner]);
      }
    }
  }

  /** One entry's keys out; a key no entry holds any more goes. */
  remove(keys: readonly string[], owner: number): void {
    for (const key of new Set(keys)) {
      const at = this.lowerBound(key);
      if (this.keys[at] !== key) continue;
      const left = this.owners[at]!.filter((o) => o !== owner);
      if (left.length > 0) this.owners[at] = left;
      else {
        this.keys.splice(at, 1);
        this.owners.splice(at, 1);
      }
    }
  }

  /**
   * Calls `visit` with each entry that has a key starting with `prefix`, and that key, keys in order
   * (an entry may come twice; its first visit is with its lowest such key).
   */
  withPrefix(prefix: string, visit: (entry: number, key: string) => void): void {
    for (let i = this.lowerBound(prefix); i < this.keys.length; i++) {
      const key = this.keys[i]!;
      if (!key.startsWith(prefix)) return;
      for (const owner of this.owners[i]!) visit(owner, key);
    }
  }

  /** The keys and their entries as sorted lists (the tests compare an updated index with a new one). */
  snapshot(idOf: (owner: number) => number): [string, number[]][] {
    return this.keys.map((k, i) => [k, this.owners[i]!.map(idOf).sort((a, b) => a - b)]);
  }
}

/** A character no normalised text holds (queries holding it are scored entry by entry). */
const SEPARATOR = '\u0000';

/**
 * Texts joined into one string with the entry each came from: the entries with a text that holds a
 * query are found by the engine's own `indexOf` over the joined string (a fast scan of a few hundred
 * KB at 100× the demo) instead of a JavaScript loop over every entry's texts.
 */
class JoinedTexts {
  private text: string;
  private starts: Int32Array;
  private owners: Int32Array;

  constructor(pairs: [string, number][]) {
    const starts: number[] = [];
    let at = 0;
    for (const [t] of pairs) {
      starts.push(at);
      at += t.length + 1;
    }
    this.text = pairs.map((p) => p[0]).join(SEPARATOR);
    this.starts = Int32Array.from(starts);
    this.owners = Int32Array.from(pairs, (p) => p[1]);
  }

  /** Calls `visit` with each entry that has a text holding `part` (an entry may come more than once). */
  holding(part: string, visit: (entry: number) => void): void {
    let at = this.text.indexOf(part);
    while (at !== -1) {
      // The text the hit is in: the last start at or before it.
      let lo = 0;
      let hi = this.starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (this.starts[mid]! <= at) lo = mid;
        else hi = mid - 1;
      }
      visit(this.owners[lo]!);
      // On to the next text: one hit per text is enough.
      const next = lo + 1 < this.starts.length ? this.starts[lo + 1]! : this.text.length;
      at = this.text.indexOf(part, next);
    }
  }
}

/** Length of the pieces `TrigramSlots` keeps (a query shorter than this is scanned for). */
const GRAM = 3;

/**
 * For each distinct three-character piece of the entries' texts (names and other names), the slots
 * of the entries holding it, as a bit set (decision 071). The entries whose texts hold a query hold
 * every piece of it, so those with all its pieces are the only ones to look at: a substring or a
 * typo's empty substring pass costs a few hundred words of AND instead of a scan of every text (about
 * 1 MB at 100× the demo, half the time of such a search). Kept across writes: a changed measurand's
 * new slot gets its bits, a vacated slot keeps stale ones, which the caller's check of the entry's
 * own texts drops.
 */
class TrigramSlots {
  private bits = new Map<string, Uint32Array>();
  private words: number;

  constructor(entries: readonly (Entry | undefined)[]) {
    this.words = Math.max(1, (entries.length + 31) >>> 5);
    entries.forEach((e, slot) => {
      if (e) this.add(e, slot);
    });
  }

  /** An entry's pieces in, at its slot (the bit sets grow to hold it). */
  add(e: Entry, slot: number): void {
    if (slot >>> 5 >= this.words) this.grow(Math.max(this.words * 2, (slot >>> 5) + 1));
    const pieces = new Set<string>();
    for (const text of [e.name, ...e.others])
      for (let i = 0; i + GRAM <= text.length; i++) pieces.add(text.slice(i, i + GRAM));
    for (const piece of pieces) {
      let set = this.bits.get(piece);
      if (!set) {
        set = new Uint32Array(this.words);
        this.bits.set(piece, set);
      }
      set[slot >>> 5]! |= 1 << (slot & 31);
    }
  }

  private grow(words: number): void {
    for (const [piece, set] of this.bits) {
      const larger = new Uint32Array(words);
      larger.set(set);
      this.bits.set(piece, larger);
    }
    this.words = words;
  }

  /** Calls `visit` with every slot holding all of `q`'s pieces (`q` at least GRAM long). */
  withAllPieces(q: string, visit: (slot: number) => void): void {
    // Every piece looked up before any set is combined: a misspelt name (the typo pass follows) has a
    // piece no entry holds, often its last, and is then answered without a pass over the sets
    // (decision 074).
    const sets: Uint32Array[] = [];
    for (let i = 0; i + GRAM <= q.length; i++) {
      const set = this.bits.get(q.slice(i, i + GRAM));
      if (!set) return;
      sets.push(set);
    }
    if (sets.length === 0) return;
    const all = sets[0]!.slice();
    for (let s = 1; s < sets.length; s++) {
      const set = sets[s]!;
      for (let w = 0; w < all.length; w++) all[w]! &= set[w]!;
    }
    for (let w = 0; w < all.length; w++)
      for (let word = all[w]!; word !== 0; word &= word - 1)
        visit((w << 5) + (31 - Math.clz32(word & -word)));
  }
}

/**
 * The slots one search has seen: a stamp per slot, a new stamp per search (decision 076). A `Set`
 * of the few hundred matches of a query at 100× the demo hashed and grew on every search.
 */
class SlotMarks {
  private marks = new Int32Array(64);
  private stamp = 0;

  /** A new search over `size` slots: none seen. */
  clear(size: number): void {
    if (size > this.marks.length) this.marks = new Int32Array(size * 2);
    if (++this.stamp === 0x7fffffff) {
      this.marks.fill(0);
      this.stamp = 1;
    }
  }

  /** Marks a slot seen; false when it already was. */
  mark(slot: number): boolean {
    if (this.marks[slot] === this.stamp) return false;
    this.marks[slot] = this.stamp;
    return true;
  }
}

/** Edits a typo may make: one, two from seven characters on. */
const typoTolerance = (q: string) => (q.length >= 7 ? 2 : 1);

/** Whether every query word starts one of `ws` (plain loops: called for every candidate of a search). */
function everyWordStarts(qWords: readonly string[], ws: readonly string[]): boolean {
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
function bestHold(texts: readonly string[], q: string): number {
  let best = 3;
  for (const t of texts) {
    if (t === q) return 0;
    if (best > 1 && t.startsWith(q)) best = 1;
    else if (best > 2 && t.includes(q)) best = 2;
  }
  return best;
}

/** Starts before substrings: see `AnalyteIndex.search`. */
function scoreOf(e: Entry, q: string, qWords: string[]): number {
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
function substringScore(e: Entry, q: string): number {
  if (e.name.includes(q)) return 6;
  for (const o of e.others) if (o.includes(q)) return 7;
  return Infinity;
}

/** The kinds of start, best first: a name, a name word, another name, a word of another name. */
type StartKind = 'name' | 'nameWord' | 'other' | 'otherWord';

/**
 * The score of a query of one word on an entry first met through a key of `kind` starting with it
 * (`exact`: the key is the query), the kinds read best first and each in key order (decision 076):
 * the same as `scoreOf`, without reading the entry. Met first through a name, the name starts with
 * the query (0 if it is the query, else 1); through a name word, the name does not start with it but
 * the query's one word starts a name word (2); through another name, neither, and its first key is
 * its lowest, the query itself if it has it (3, else 4); through another name's word, 5.
 */
function startScore(kind: StartKind, exact: boolean): number {
  if (kind === 'name') return exact ? 0 : 1;
  if (kind === 'nameWord') return 2;
  if (kind === 'other') return exact ? 3 : 4;
  return 5;
}

/** The lowest score a start (of the name, a name word, another name or its word) can have: 0–5. */
const LAST_START_SCORE = 5;

/** One measurand as the index compares it: its names normalised once. */
function entryOf(a: AnalyteRow): Entry {
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
}

/**
 * An in-memory index of measurand names. The starts (scores 0–5) are found through sorted keys, so a
 * search that has enough of them reads only those entries whatever the number of measurands (issue
 * 26, point 3; decision 042); otherwise every entry is scored, as before (substrings, then typos).
 * A write changes only its measurands' entries (`update`, decision 066): the sorted keys take their
 * keys out and in; the joined texts and the typo words are made again from the entries on the next
 * query that needs them. Entries sit in slots that are never reused, and the answer's order does not
 * depend on them (ties go by id), so an updated index answers as one built from the same rows.
 */
export class AnalyteIndex {
  /** By slot; a removed measurand leaves its slot empty. */
  private entries: (Entry | undefined)[];
  private slotOf = new Map<number, number>();
  private names: SortedKeys;
  private nameWords: SortedKeys;
  private others: SortedKeys;
  private otherWords: SortedKeys;
  /** Names and other names joined, for substrings (made on the first substring query after a change). */
  private joined: JoinedTexts | undefined;
  /** Which entries hold which pieces of three characters (made on the first substring query). */
  private trigrams: TrigramSlots | undefined;
  /** Built on the first query with a typo. */
  private typoWords: TypoWords | undefined;
  /** Where each slot stands among equals in an answer (decision 076). */
  private order: NameOrder;
  /** The sorted keys by kind of start. */
  private sorted: Record<StartKind, SortedKeys>;
  /** The slots the running search has seen. */
  private seen = new SlotMarks();

  constructor(rows: AnalyteRow[]) {
    this.entries = rows.map(entryOf);
    this.entries.forEach((e, i) => this.slotOf.set(e!.id, i));
    const keys = (of: (e: Entry) => string[]) =>
      new SortedKeys(
        this.entries.flatMap((e, i) => [...new Set(of(e!))].map((k): [string, number] => [k, i])),
      );
    this.names = keys((e) => [e.name]);
    this.nameWords = keys((e) => e.nameWords);
    this.others = keys((e) => e.others);
    this.otherWords = keys((e) => e.otherWords);
    this.order = new NameOrder(this.entries);
    this.sorted = {
      name: this.names,
      nameWord: this.nameWords,
      other: this.others,
      otherWord: this.otherWords,
    };
  }

  private get texts(): JoinedTexts {
    this.joined ??= new JoinedTexts(
      this.entries.flatMap((e, i) => (e ? [e.name, ...e.others].map((t): [string, number] => [t, i]) : [])),
    );
    return this.joined;
  }

  /** How many measurands the index holds. */
  get size(): number {
    return this.slotOf.size;
  }

  /**
   * These measurands as they are now (`rows`: new or changed) and without those `removed` (deleted):
   * only their keys move.
   */
  update(rows: readonly AnalyteRow[], removed: readonly number[] = []): void {
    const out = (id: number) => {
      const slot = this.slotOf.get(id);
      if (slot === undefined) return;
      const e = this.entries[slot]!;
      this.names.remove([e.name], slot);
      this.nameWords.remove(e.nameWords, slot);
      this.others.remove(e.others, slot);
      this.otherWords.remove(e.otherWords, slot);
      this.order.remove(slot);
      this.entries[slot] = undefined;
      this.slotOf.delete(id);
    };
    for (const id of removed) out(id);
    for (const row of rows) {
      out(row.id);
      const e = entryOf(row);
      const slot = this.entries.length;
      this.entries.push(e);
      this.slotOf.set(e.id, slot);
      this.names.add([e.name], slot);
      this.nameWords.add(e.nameWords, slot);
      this.others.add(e.others, slot);
      this.otherWords.add(e.otherWords, slot);
      this.trigrams?.add(e, slot);
      this.order.add(slot);
    }
    if (rows.length > 0 || removed.length > 0) {
      this.joined = undefined;
      this.typoWords = undefined;
    }
  }

  /** The sorted keys by measurand id: an updated index and one built from the same rows hold the same. */
  snapshot(): Record<'names' | 'nameWords' | 'others' | 'otherWords', [string, number[]][]> {
    const idOf = (slot: number) => this.entries[slot]!.id;
    return {
      names: this.names.snapshot(idOf),
      nameWords: this.nameWords.snapshot(idOf),
      others: this.others.snapshot(idOf),
      otherWords: this.otherWords.snapshot(idOf),
    };
  }

  /**
   * Ranked matches: exact name, name prefix, word start in the name, then the same on other names
   * (full name, alternate names, codes), and only then substrings; typos only when nothing matches.
   */
  search(query: string, limit = 10): { id: number; display_name: string }[] {
    const q = normalise(query);
    if (!q) return [];
    const qWords = words(q);
    return this.ranked(this.starts(q, qWords, limit) ?? this.matches(q, qWords), limit);
  }

  /**
   * The same answer with every entry scored and the matches ordered by comparing their names, as
   * before the sorted keys and the kept name order (the tests compare the two).
   */
  searchEveryEntry(query: string, limit = 10): { id: number; display_name: string }[] {
    const q = normalise(query);
    if (!q) return [];
    const scored = this.scoreAll(q, words(q));
    // Equal names (copies of one measurand) go by id, so the answer never depends on where an entry
    // sits in the index (decision 066: a changed measurand's entry moves to the end).
    scored.sort(
      (a, b) =>
        a.score - b.score ||
        a.e.name.length - b.e.name.length ||
        NAME_ORDER.compare(a.e.name, b.e.name) ||
        a.e.id - b.e.id,
    );
    return scored.slice(0, limit).map(({ e }) => ({ id: e.id, display_name: e.display_name }));
  }

  /**
   * Visits the entries met through `kind`'s keys starting with `prefix` and not met before in this
   * search, with their score: for a query of one word (`single`), from the key alone.
   */
  private visitStarts(
    kind: StartKind,
    prefix: string,
    q: string,
    qWords: string[],
    visit: (slot: number, score: number) => void,
  ): void {
    const single = qWords.length === 1 && qWords[0] === q;
    this.sorted[kind].withPrefix(prefix, (slot, key) => {
      if (!this.seen.mark(slot)) return;
      visit(slot, single ? startScore(kind, key === q) : scoreOf(this.entries[slot]!, q, qWords));
    });
  }

  /**
   * The first `limit` matches, from their ranking keys: by score, name length, then name order and
   * id, all in the one number, so they sort natively with no comparison of names (decision 076).
   */
  private ranked(keys: number[], limit: number): { id: number; display_name: string }[] {
    const sorted = Float64Array.from(keys).sort();
    const answer: { id: number; display_name: string }[] = [];
    for (let i = 0; i < sorted.length && i < limit; i++) {
      const e = this.entries[this.order.slotAt(positionIn(sorted[i]!))]!;
      answer.push({ id: e.id, display_name: e.display_name });
    }
    return answer;
  }

  /**
   * The ranking keys of the entries that start with the query (scores 0–5) when at least `limit` of
   * them do: every other entry scores more, so the first `limit` are among these. Undefined when
   * there are fewer (substrings and typos may then be in the answer).
   *
   * The sorted keys are read a kind at a time, best first, and the reading stops as soon as enough
   * entries score within what that kind can give (decision 071): every entry scoring 0–1 has a name
   * starting with the query, every entry scoring 2 a name word starting with its first word, 3–4
   * another name starting with it, 5 such a word. "cre" at 100× the demo then scores the two
   * hundred names starting with it, not the thousands of entries with a word or a code that does.
   */
  private starts(q: string, qWords: string[], limit: number): number[] | undefined {
    this.seen.clear(this.entries.length);
    const keys: number[] = [];
    const take = (kind: StartKind, prefix: string) =>
      this.visitStarts(kind, prefix, q, qWords, (slot, score) => {
        if (score < Infinity) keys.push(this.order.keyOf(slot, score));
      });
    const enough = (upTo: number) => {
      const below = keyBelowScore(upTo + 1);
      const within = keys.filter((k) => k < below);
      return within.length >= limit ? within : undefined;
    };
    take('name', q);
    const kinds: [StartKind, string | undefined, number][] = [
      ['nameWord', qWords[0], 2],
      ['other', q, 4],
      ['otherWord', qWords[0], LAST_START_SCORE],
    ];
    let answer = enough(1);
    for (const [kind, prefix, upTo] of kinds) {
      if (answer) return answer;
      if (prefix !== undefined) take(kind, prefix);
      answer = enough(upTo);
    }
    return answer;
  }

  /**
   * Visits, once each with its score, the entries with a name, other name or one of their words
   * starting with the query (or its first word).
   */
  private startsOf(q: string, qWords: string[], visit: (slot: number, score: number) => void): void {
    this.visitStarts('name', q, q, qWords, visit);
    if (qWords.length > 0) this.visitStarts('nameWord', qWords[0]!, q, qWords, visit);
    this.visitStarts('other', q, q, qWords, visit);
    if (qWords.length > 0) this.visitStarts('otherWord', qWords[0]!, q, qWords, visit);
  }

  /**
   * The ranking keys of what `scoreAll` finds, from the entries that can match only: a start (scores
   * 0–5, through the sorted keys; every word of the query must start a word, so the first one does)
   * or a substring (6–7, through the pieces of three characters, or the joined texts for a shorter
   * query: an entry holding no start is scored by its substrings alone, once); typos through the
   * distinct words.
   */
  private matches(q: string, qWords: string[]): number[] {
    if (q.includes(SEPARATOR))
      return this.scoreAll(q, qWords).map((x) => this.order.keyOf(this.slotOf.get(x.e.id)!, x.score));
    this.seen.clear(this.entries.length);
    const keys: number[] = [];
    this.startsOf(q, qWords, (slot, score) => {
      if (score < Infinity) keys.push(this.order.keyOf(slot, score));
    });
    const substring = (slot: number) => {
      if (!this.seen.mark(slot)) return;
      const e = this.entries[slot];
      const score = e ? substringScore(e, q) : Infinity;
      if (score < Infinity) keys.push(this.order.keyOf(slot, score));
    };
    if (q.length >= GRAM) {
      this.trigrams ??= new TrigramSlots(this.entries);
      this.trigrams.withAllPieces(q, substring);
    } else this.texts.holding(q, substring);
    if (keys.length > 0 || q.length < 3) return keys;
    this.typoWords ??= new TypoWords(this.entries);
    const closest = this.typoWords.closest(q, typoTolerance(q));
    return [...closest].map(([slot, distance]) => this.order.keyOf(slot, 10 + distance));
  }

  /** Every entry scored: starts, substrings, and typos only when nothing else matches. */
  private scoreAll(q: string, qWords: string[]): { e: Entry; score: number }[] {
    const scored: { e: Entry; score: number }[] = [];
    for (const e of this.entries) {
      if (!e) continue;
      const score = scoreOf(e, q, qWords);
      if (score < Infinity) scored.push({ e, score });
    }
    if (scored.length === 0 && q.length >= 3) {
      const tolerance = typoTolerance(q);
      for (const e of this.entries) {
        if (!e) continue;
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
    return scored;
  }
}
