/**
 * A value built from the database (a search index, a menu's catalogue) kept up to date by the change
 * feed's log (decision 066): when the data it reads moved (`stamp`, the read cache's generations of
 * its scopes, moved by this process's writes at once and by other processes' through the change
 * signal), it reads what the log holds after its cursor and applies only that. It reads everything
 * again when the log cannot say (more changes than `limit`, an `apply` that declines, a failure).
 *
 * Why the log and not ids carried by the signal: the log is written by triggers in every writer's
 * transaction (decision 056), so a lost notification, a process that was down, or a write that went
 * around the services (an import, the seed) is still there to read; a signal carrying ids would
 * have to be complete on every path and would be lost with its notification.
 *
 * Order: the cursor is read before the data (a full read) and the log before the records it names
 * (an update), and applying a change reads the record's current state: a change committed in
 * between is read twice, never missed. Refreshes run one at a time (the next waits for the one
 * running), so two never apply to the same value at once.
 */
export interface ChangeLog<C> {
  latestCursor: () => Promise<number>;
  /** The changes after `since`, or undefined when there are more than `limit`. */
  since: (since: number, limit: number) => Promise<{ cursor: number; changes: C[] } | undefined>;
}

export interface KeptByChangesOptions<T, C> {
  /** A number that moves whenever the data the value reads may have changed. */
  stamp: () => number;
  log: ChangeLog<C>;
  build: () => Promise<T>;
  /**
   * Applies `changes` (none when the stamp moved for a write the log does not name) to `value`, in
   * place or as a new value: its reads first, then the change in one synchronous step, so no reader
   * sees half of it. Undefined asks for a full read.
   */
  apply: (value: T, changes: C[]) => Promise<T | undefined>;
  /** Past this many changes the value is read again whole (default 500). */
  limit?: number;
}

export class KeptByChanges<T, C> {
  private kept: { stamp: number; cursor: number; value: T } | undefined;
  private running: { stamp: number; done: Promise<T> } | undefined;
  /** How the last refresh went (for the benches and the tests). */
  lastRefresh: 'built' | 'updated' | undefined;

  constructor(private readonly opts: KeptByChangesOptions<T, C>) {}

  get(): Promise<T> {
    const stamp = this.opts.stamp();
    if (this.kept?.stamp === stamp) return Promise.resolve(this.kept.value);
    if (this.running?.stamp === stamp) return this.running.done;
    const before = this.running?.done.catch(() => undefined);
    const done = (async () => {
      await before;
      return this.refresh(stamp);
    })();
    const running = { stamp, done };
    this.running = running;
    const clear = () => {
      if (this.running === running) this.running = undefined;
    };
    done.then(clear, () => {
      // A failed read keeps nothing: the next caller reads everything again.
      this.kept = undefined;
      clear();
    });
    return done;
  }

  /** Forgets the value: the next caller reads everything again. */
  drop(): void {
    this.kept = undefined;
  }

  private async refresh(stamp: number): Promise<T> {
    const kept = this.kept;
    if (kept && kept.stamp === stamp) return kept.value;
    if (kept) {
      const read = await this.opts.log.since(kept.cursor, this.opts.limit ?? 500);
      if (read) {
        const value = await this.opts.apply(kept.value, read.changes);
        if (value !== undefined) {
          this.kept = { stamp, cursor: read.cursor, value };
          this.lastRefresh = 'updated';
          return value;
        }
      }
    }
    this.kept = undefined;
    const cursor = await this.opts.log.latestCursor();
    const value = await this.opts.build();
    this.kept = { stamp, cursor, value };
    this.lastRefresh = 'built';
    return value;
  }
}
