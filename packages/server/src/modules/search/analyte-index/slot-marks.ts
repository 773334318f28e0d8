/**
 * The slots one search has seen: a stamp per slot, a new stamp per search (decision 076). A `Set`
 * of the few hundred matches of a query at 100× the demo hashed and grew on every search.
 */
export class SlotMarks {
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
