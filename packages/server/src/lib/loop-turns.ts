import { performance } from 'node:perf_hooks';
/**
 * Turns of the event loop handed out one at a time. Work started by many requests that arrived
 * together (fifty first pages of a catalogue from one client's burst) runs in the poll phase that read
 * them, one after another, with no socket read in between: at 100× the demo data fifty pages held the
 * loop for 133 ms (issue 44.1). Awaiting `nextTurn()` first puts each such piece of work in a turn of
 * its own: an immediate queued from an immediate runs in the next turn, after the loop has polled
 * its I/O, so a `/healthz` waits for one page at most.
 */
const waiting: (() => void)[] = [];
let handing = false;

function handOne(): void {
  const go = waiting.shift();
  if (waiting.length > 0) setImmediate(handOne);
  else handing = false;
  go?.();
}

/** Resolves in a turn of the event loop of its own (first come, first served). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (handing) return;
    handing = true;
    setImmediate(handOne);
  });
}

/**
 * `items` mapped by `make`, `step` at a time, each step in a turn of its own: a page
 * of a hundred datasets made into JSON for the first time costs tens of milliseconds, and fifty such
 * pages asked together share the loop a few items at a time instead of a page at a time.
 */
export async function mapInTurns<T, R>(items: readonly T[], make: (item: T) => R, step = 25): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += step) {
    // The first step too: the rows often arrive in a poll callback beside other answers' rows
    // (PostgreSQL's pool delivers several at once), and making their first items there added up.
    await nextTurn();
    for (const item of items.slice(i, i + step)) out.push(make(item));
  }
  return out;
}

/**
 * For a long loop over a file's rows on the event loop's thread (an import's reading and checks at
 * 100× the demo held it for 0.9 s, issue 44.1): `turnAfter(ms)` gives a function to call every row,
 * which answers a promise of the next turn once `ms` have passed since the last one, and undefined
 * before (so the loop awaits only then; the clock is read every 32 calls).
 */
export function turnAfter(ms: number): () => Promise<void> | undefined {
  let since = performance.now();
  let calls = 0;
  return () => {
    if (++calls % 32 !== 0 || performance.now() - since < ms) return undefined;
    return nextTurn().then(() => {
      since = performance.now();
    });
  };
}
