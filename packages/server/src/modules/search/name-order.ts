/** The order of names in an answer: as `localeCompare` orders them (same default locale and options). */
export const NAME_ORDER = new Intl.Collator();

/** Positions below this fit a ranking key (`rankKey`): far more measurands than any catalogue holds. */
const POSITIONS = 2 ** 24;
/** Name lengths below this fit a ranking key; a longer name ranks as if it were this long less one. */
const LENGTHS = 2 ** 20;
/** What one point of score weighs in a ranking key: more than any length and position together. */
const SCORE_UNIT = LENGTHS * POSITIONS;

/**
 * One number that orders a match as the answer does (decision 076): by score, then name length, then
 * name order (a slot's position in `NameOrder`, which holds the ties by id). Every part is an integer and the
 * whole stays below 2^53, so keys compare exactly and sort natively in a `Float64Array`; two slots
 * never share a key.
 */
export function rankKey(score: number, nameLength: number, position: number): number {
  return (score * LENGTHS + Math.min(nameLength, LENGTHS - 1)) * POSITIONS + position;
}

/** The position a ranking key was made with (`NameOrder.slotAt` gives its slot). */
export const positionIn = (key: number): number => key % POSITIONS;

/** The lowest key a score can give: the keys of scores up to `score` are those below `keyBelowScore(score + 1)`. */
export const keyBelowScore = (score: number): number => score * SCORE_UNIT;

/** What `NameOrder` needs of an index entry. */
interface Named {
  id: number;
  name: string;
}

/**
 * The index's slots in answer order among equals (the collator's order of their names, then id),
 * kept across writes (decision 076). Before, each search ordered its tied matches with the collator
 * at the cut: at 100× the demo a query matching hundreds of copies of a name compared them there,
 * about a third of the search. Now a slot's position is a number made once: built with one sort of
 * every name (13 ms at 100× the demo), moved by a binary search of the collator when a write adds or
 * removes a slot, and the positions after it renumbered (typed-array writes, no comparison).
 */
export class NameOrder {
  private slots: number[];
  private positions: Int32Array;
  /** Each slot's name length, beside its position: a key is made without reading the entry. */
  private lengths: Int32Array;

  constructor(private readonly entries: readonly (Named | undefined)[]) {
    this.slots = [];
    entries.forEach((e, slot) => {
      if (e) this.slots.push(slot);
    });
    this.slots.sort((a, b) => this.compare(a, b));
    if (this.slots.length >= POSITIONS) throw new Error('Too many measurands to rank');
    this.positions = new Int32Array(Math.max(16, entries.length * 2)).fill(-1);
    this.lengths = new Int32Array(this.positions.length);
    for (const slot of this.slots) this.lengths[slot] = entries[slot]!.name.length;
    this.renumberFrom(0);
  }

  private compare(a: number, b: number): number {
    const x = this.entries[a]!;
    const y = this.entries[b]!;
    return NAME_ORDER.compare(x.name, y.name) || x.id - y.id;
  }

  private renumberFrom(from: number): void {
    for (let p = from; p < this.slots.length; p++) this.positions[this.slots[p]!] = p;
  }

  /** A new slot (its entry already in `entries`) in its place among the others. */
  add(slot: number): void {
    if (slot >= this.positions.length) {
      const size = Math.max(slot + 1, this.positions.length * 2);
      const positions = new Int32Array(size).fill(-1);
      positions.set(this.positions);
      this.positions = positions;
      const lengths = new Int32Array(size);
      lengths.set(this.lengths);
      this.lengths = lengths;
    }
    this.lengths[slot] = this.entries[slot]!.name.length;
    let lo = 0;
    let hi = this.slots.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.slots[mid]!, slot) < 0) lo = mid + 1;
      else hi = mid;
    }
    this.slots.splice(lo, 0, slot);
    if (this.slots.length >= POSITIONS) throw new Error('Too many measurands to rank');
    this.renumberFrom(lo);
  }

  /** A slot taken out (its measurand deleted or moved to a new slot). */
  remove(slot: number): void {
    const at = this.positions[slot] ?? -1;
    if (at < 0) return;
    this.slots.splice(at, 1);
    this.positions[slot] = -1;
    this.renumberFrom(at);
  }

  /** The ranking key of a slot's match with `score` (`rankKey`), from typed arrays alone. */
  keyOf(slot: number, score: number): number {
    return rankKey(score, this.lengths[slot]!, this.positions[slot]!);
  }

  /** The slot at a position. */
  slotAt(position: number): number {
    return this.slots[position]!;
  }
}
