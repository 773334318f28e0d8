import { keyBelowScore, NAME_ORDER, NameOrder, positionIn } from '../name-order.js';
import { TypoWords } from '../typo-words.js';
import { editDistance } from './edit-distance.js';
import { entryOf, normalise, words, type AnalyteRow, type Entry } from './entry.js';
import { JoinedTexts, SEPARATOR } from './joined-texts.js';
import {
  LAST_START_SCORE,
  scoreOf,
  startScore,
  substringScore,
  typoTolerance,
  type StartKind,
} from './scores.js';
import { SlotMarks } from './slot-marks.js';
import { SortedKeys } from './sorted-keys.js';
import { GRAM, TrigramSlots } from './trigram-slots.js';

/**
 * An in-memory index of measurand names. The starts (scores 0–5) are found through sorted keys, so a
 * search that has enough of them reads only those entries whatever the number of measurands (issue
 * 26, point 3; decision 042); otherwise every entry is scored, as before (substrings, then typos).
 * A write changes only its measurands' entries (`update`, decision 066): the sorted keys take their
 * keys out and in; the joined texts and the typo words are made again from the entries on the next
 * query that needs them. Entries sit in slots that are never reused, and the answer's order does not
 * depend on them (ties go by id), so an updated index answers as one built from the same rows.
 */
/** Measurands made into entries per step of `AnalyteIndex.build`. */
const ENTRY_STEP = 250;

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

  /**
   * The index of `rows`, their entries (names split, normalised and keyed: most of the work) made a
   * step of ENTRY_STEP at a time with the event loop free between steps: at 100× the demo data the
   * 7,100 measurands made at once held it for hundreds of milliseconds (issue 44.1).
   */
  static async build(rows: readonly AnalyteRow[]): Promise<AnalyteIndex> {
    const entries: Entry[] = [];
    for (let i = 0; i < rows.length; i += ENTRY_STEP) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const row of rows.slice(i, i + ENTRY_STEP)) entries.push(entryOf(row));
    }
    return new AnalyteIndex(entries, true);
  }

  constructor(rows: readonly AnalyteRow[]);
  constructor(entries: readonly Entry[], made: true);
  constructor(rows: readonly (AnalyteRow | Entry)[], made = false) {
    this.entries = made ? [...(rows as readonly Entry[])] : (rows as readonly AnalyteRow[]).map(entryOf);
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

  /**
   * What the first substring or typo query would otherwise make on the event loop (the pieces of three
   * characters, the typo words, the joined texts), made now a part at a time with the loop let go
   * between: a server warms its indexes once ready, so a first menu of two hundred lines with typos
   * makes none of them while others wait (issue 44.1).
   */
  async prepare(): Promise<void> {
    const letGo = () => new Promise((resolve) => setImmediate(resolve));
    this.trigrams ??= await TrigramSlots.inSteps(this.entries, ENTRY_STEP * 4);
    await letGo();
    this.typoWords ??= new TypoWords(this.entries);
    await letGo();
    void this.texts;
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
