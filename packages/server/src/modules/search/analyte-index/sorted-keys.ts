/** Distinct keys in code-unit order with the entries each came from: the entries whose key starts with a text. */
export class SortedKeys {
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
