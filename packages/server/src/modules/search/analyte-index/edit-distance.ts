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
