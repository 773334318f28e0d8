/**
 * Requests the full path is answering now, in this process (the fast path's replays are answered in
 * the turn they arrive and are not counted). Background work that can wait — the public records made
 * ahead (decision 114) — waits for a moment with none, so the cores go to the callers first: right
 * after a start, fifty first pages asked at once shared the compression thread and the loop with
 * the records of every kept row.
 */
let inFlight = 0;
const waiters = new Set<() => void>();

/** Counts a request in; the function it returns counts it out (once, however often it is called). */
export function requestStarted(): () => void {
  inFlight++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    if (--inFlight === 0) for (const wake of waiters) wake();
  };
}

/** Requests being answered now. */
export function requestsInFlight(): number {
  return inFlight;
}

/**
 * Resolves at the first moment no request is being answered, or after `maxWaitMs` whatever the
 * load: under a steady stream of requests the background work still moves, a step at a time.
 */
export function untilNoRequests(maxWaitMs: number): Promise<void> {
  if (inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const go = () => {
      clearTimeout(timer);
      waiters.delete(go);
      resolve();
    };
    // Waiting for a quiet moment keeps no process alive.
    const timer = setTimeout(go, maxWaitMs).unref();
    waiters.add(go);
  });
}
