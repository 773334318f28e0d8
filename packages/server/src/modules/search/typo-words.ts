/** What the typo search reads of an index entry: its normalised name and the words it can be found by. */
export interface TypoEntry {
  name: string;
  nameWords: readonly string[];
  otherWords: readonly string[];
}

/**
 * Every distinct word an entry can be found by when the query has a typo (its name, the words of its
 * name and of its other names), with the entries that hold it, in a trie (decision 074). A typo is
 * looked for by walking the trie with one row of the optimal-string-alignment table per prefix: a
 * prefix shared by many words (at 100× the demo, "creatinine (copy " begins a hundred names) is
 * compared once, and a branch is left as soon as every cell of its row is past the tolerance (no
 * longer word or prefix below it can come back within it; see `closest`). Before, the banded
 * distance ran against every distinct word of a near length and every distinct prefix of the
 * query's length: thousands at 100×, most of a kept 200-test menu's event loop.
 */
export class TypoWords {
  // The trie in flat lists by node (node 0 the root, the empty prefix): a build after every write
  // (the words are made again on the first typo query after one, decision 066) allocates a few
  // growing lists, not an object and an array per node.
  /** The node's last character. */
  private readonly chars: number[] = [-1];
  /** The node's depth: the length of its prefix. */
  private readonly depths: number[] = [0];
  /** The node's first child and next sibling, -1 for none. */
  private readonly firstChild: number[] = [-1];
  private readonly nextSibling: number[] = [-1];
  /** The entries whose word is exactly the node's prefix. */
  private readonly entriesAt: (number[] | undefined)[] = [undefined];
  /** The entries of the words strictly longer than a node's prefix that start with it (gathered when first asked). */
  private readonly below = new Map<number, number[]>();
  /** Rows of the table by depth (row 0: the empty prefix), grown as needed and kept between calls. */
  private rows: Int32Array[] = [];

  constructor(entries: readonly (TypoEntry | undefined)[]) {
    // Gathered by word first, then each distinct word put in once: at 100× the demo most words are
    // shared by a hundred entries.
    const owners = new Map<string, number[]>();
    entries.forEach((e, i) => {
      if (!e) return;
      for (const w of new Set([...e.nameWords, ...e.otherWords, e.name])) {
        const list = owners.get(w);
        if (list) list.push(i);
        else owners.set(w, [i]);
      }
    });
    for (const [word, list] of owners) this.insert(word, list);
  }

  private insert(word: string, list: number[]): void {
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      let child = this.firstChild[node]!;
      while (child !== -1 && this.chars[child] !== c) child = this.nextSibling[child]!;
      if (child === -1) {
        child = this.chars.length;
        this.chars.push(c);
        this.depths.push(i + 1);
        this.firstChild.push(-1);
        this.nextSibling.push(this.firstChild[node]!);
        this.entriesAt.push(undefined);
        this.firstChild[node] = child;
      }
      node = child;
    }
    this.entriesAt[node] = list;
  }

  /** The entries of every word below `node`, not its own (once per node: later calls read it kept). */
  private belowOf(node: number): number[] {
    const kept = this.below.get(node);
    if (kept) return kept;
    const found: number[] = [];
    const stack: number[] = [];
    for (let c = this.firstChild[node]!; c !== -1; c = this.nextSibling[c]!) stack.push(c);
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      const list = this.entriesAt[n];
      if (list) for (const i of list) found.push(i);
      for (let c = this.firstChild[n]!; c !== -1; c = this.nextSibling[c]!) stack.push(c);
    }
    this.below.set(node, found);
    return found;
  }

  /**
   * Each entry with a word within `tolerance` edits of `q` (the whole word, or its first
   * `q.length` characters when it is longer) and its smallest distance: the same as comparing every
   * word and prefix of every entry with `editDistance` (a seeded test holds the two equal).
   *
   * The walk keeps, for the prefix `p` of depth `i`, the row of distances between `p` and every
   * prefix of `q`, capped at `tolerance + 1` and computed only within `tolerance` of the diagonal
   * (a cell further off costs more). A branch is left when its row's smallest cell is past the
   * tolerance: a cell of the next row comes from a cell of this row plus zero or one, or — a swap —
   * from the row before plus one, which is never below this row's smallest (the cell the swap
   * crosses is at most one more than where it starts).
   */
  closest(q: string, tolerance: number): Map<number, number> {
    const best = new Map<number, number>();
    const note = (list: readonly number[], d: number) => {
      for (const i of list) if (!(best.get(i)! <= d)) best.set(i, d);
    };
    const m = q.length;
    // An empty query is every longer word's prefix of its length (no caller asks; kept for equality).
    if (m === 0) {
      note(this.belowOf(0), 0);
      return best;
    }
    const far = tolerance + 1;
    const deepest = m + tolerance;
    while (this.rows.length <= deepest) this.rows.push(new Int32Array(m + 2));
    if (this.rows[0]!.length < m + 2) this.rows = this.rows.map(() => new Int32Array(m + 2));
    const rows = this.rows;
    const row0 = rows[0]!;
    for (let j = 0; j <= Math.min(m, far); j++) row0[j] = Math.min(j, far);
    if (far + 1 <= m) row0[far + 1] = far;
    /** The characters of the path from the root, by depth (1-based as the rows). */
    const path = new Int32Array(deepest + 1);
    const stack: number[] = [];
    for (let c = this.firstChild[0]!; c !== -1; c = this.nextSibling[c]!) stack.push(c);
    for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
      const i = this.depths[node]!;
      const ci = this.chars[node]!;
      path[i] = ci;
      const prev2 = i >= 2 ? rows[i - 2]! : undefined;
      const prev = rows[i - 1]!;
      const cur = rows[i]!;
      const lo = Math.max(1, i - tolerance);
      const hi = Math.min(m, i + tolerance);
      let rowMin = far;
      if (lo > hi) {
        // The prefix is longer than the query by more than the tolerance: nothing here or below.
        continue;
      }
      cur[lo - 1] = lo === 1 ? Math.min(i, far) : far;
      if (lo === 1) rowMin = cur[0]!;
      if (hi < m) cur[hi + 1] = far;
      const cPrev = i >= 2 ? path[i - 1]! : -1;
      for (let j = lo; j <= hi; j++) {
        const qj = q.charCodeAt(j - 1);
        let v = prev[j]! + 1;
        const ins = cur[j - 1]! + 1;
        if (ins < v) v = ins;
        const sub = prev[j - 1]! + (ci === qj ? 0 : 1);
        if (sub < v) v = sub;
        if (prev2 && j > 1 && ci === q.charCodeAt(j - 2) && cPrev === qj) {
          const swap = prev2[j - 2]! + 1;
          if (swap < v) v = swap;
        }
        if (v > far) v = far;
        cur[j] = v;
        if (v < rowMin) rowMin = v;
      }
      if (rowMin > tolerance) continue;
      // The whole word (lengths within the tolerance of the query's: `hi === m` here says so).
      if (hi === m) {
        const d = cur[m]!;
        if (d <= tolerance) {
          const list = this.entriesAt[node];
          if (list && i >= Math.max(1, m - tolerance)) note(list, d);
          // The query's length: the prefix of every longer word below.
          if (i === m && this.firstChild[node] !== -1) note(this.belowOf(node), d);
        }
      }
      if (i < deepest) for (let c = this.firstChild[node]!; c !== -1; c = this.nextSibling[c]!) stack.push(c);
    }
    return best;
  }
}
