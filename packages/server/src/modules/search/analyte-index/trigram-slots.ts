import type { Entry } from './entry.js';

/** Length of the pieces `TrigramSlots` keeps (a query shorter than this is scanned for). */
export const GRAM = 3;

/**
 * For each distinct three-character piece of the entries' texts (names and other names), the slots
 * of the entries holding it, as a bit set (decision 071). The entries whose texts hold a query hold
 * every piece of it, so those with all its pieces are the only ones to look at: a substring or a
 * typo's empty substring pass costs a few hundred words of AND instead of a scan of every text (about
 * 1 MB at 100× the demo, half the time of such a search). Kept across writes: a changed measurand's
 * new slot gets its bits, a vacated slot keeps stale ones, which the caller's check of the entry's
 * own texts drops.
 */
export class TrigramSlots {
  private bits = new Map<string, Uint32Array>();
  private words: number;

  constructor(entries: readonly (Entry | undefined)[]) {
    this.words = Math.max(1, (entries.length + 31) >>> 5);
    entries.forEach((e, slot) => {
      if (e) this.add(e, slot);
    });
  }

  /**
   * The same slots made `step` entries at a time, the event loop let go between steps: at 100× the
   * demo data the 7,100 measurands' pieces at once held it for tens of milliseconds (issue 44.1).
   */
  static async inSteps(entries: readonly (Entry | undefined)[], step: number): Promise<TrigramSlots> {
    const slots = new TrigramSlots([]);
    slots.grow(Math.max(1, (entries.length + 31) >>> 5));
    for (let i = 0; i < entries.length; i += step) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      for (let slot = i; slot < Math.min(entries.length, i + step); slot++) {
        const e = entries[slot];
        if (e) slots.add(e, slot);
      }
    }
    return slots;
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
