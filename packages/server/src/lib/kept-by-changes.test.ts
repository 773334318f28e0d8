import { describe, expect, it } from 'vitest';
import { KeptByChanges } from './kept-by-changes.js';

// A value kept by the change log (decision 066): updated from what the log says when it can, read
// whole when it cannot, never served stale.

/** A fake database: a set of records by id and a log of their ids, with cursors. */
function fakeDatabase() {
  const records = new Map<number, string>();
  const log: { cursor: number; id: number }[] = [];
  let cursor = 0;
  let stamp = 0;
  const calls = { builds: 0, applies: 0 };
  return {
    records,
    calls,
    stamp: () => stamp,
    write(id: number, value: string | undefined) {
      if (value === undefined) records.delete(id);
      else records.set(id, value);
      log.push({ cursor: (cursor += 1), id });
      stamp += 1;
    },
    /** A write the log does not hold (as one made around the triggers): only the full read sees it. */
    writeUnlogged(id: number, value: string) {
      records.set(id, value);
      stamp += 1;
    },
    log: {
      latestCursor: async () => cursor,
      since: async (since: number, limit: number) => {
        const after = log.filter((l) => l.cursor > since);
        if (after.length > limit) return undefined;
        return { cursor: after.at(-1)?.cursor ?? since, changes: after.map((l) => l.id) };
      },
    },
  };
}

function keptCopy(db: ReturnType<typeof fakeDatabase>, limit = 3) {
  return new KeptByChanges<Map<number, string>, number>({
    stamp: db.stamp,
    log: db.log,
    limit,
    build: async () => {
      db.calls.builds++;
      return new Map(db.records);
    },
    apply: async (value, ids) => {
      db.calls.applies++;
      for (const id of ids) {
        const now = db.records.get(id);
        if (now === undefined) value.delete(id);
        else value.set(id, now);
      }
      return value;
    },
  });
}

describe('KeptByChanges', () => {
  it('reads whole once, then applies only the changed records, and nothing when nothing moved', async () => {
    const db = fakeDatabase();
    db.write(1, 'sodium');
    db.write(2, 'potassium');
    const kept = keptCopy(db);
    expect([...(await kept.get())]).toEqual([
      [1, 'sodium'],
      [2, 'potassium'],
    ]);
    expect(kept.lastRefresh).toBe('built');
    await kept.get();
    expect(db.calls).toEqual({ builds: 1, applies: 0 });

    db.write(2, 'potassium, serum');
    db.write(3, 'chloride');
    db.write(1, undefined);
    expect(Object.fromEntries(await kept.get())).toEqual({ 2: 'potassium, serum', 3: 'chloride' });
    expect(kept.lastRefresh).toBe('updated');
    expect(db.calls).toEqual({ builds: 1, applies: 1 });
  });

  it('reads whole again when the log holds more than the limit (an import)', async () => {
    const db = fakeDatabase();
    const kept = keptCopy(db, 3);
    await kept.get();
    for (let i = 1; i <= 4; i++) db.write(i, `m${i}`);
    expect((await kept.get()).size).toBe(4);
    expect(kept.lastRefresh).toBe('built');
    expect(db.calls.builds).toBe(2);
  });

  it('a failed refresh keeps nothing: the next caller reads whole, never the half-applied value', async () => {
    const db = fakeDatabase();
    db.write(1, 'sodium');
    const kept = keptCopy(db);
    await kept.get();
    const since = db.log.since;
    db.log.since = async () => {
      throw new Error('the database went away');
    };
    db.write(1, 'natrium');
    await expect(kept.get()).rejects.toThrow('went away');
    db.log.since = since;
    expect(Object.fromEntries(await kept.get())).toEqual({ 1: 'natrium' });
    expect(kept.lastRefresh).toBe('built');
  });

  it('callers during a refresh share it, and a write during it is applied by the next one', async () => {
    const db = fakeDatabase();
    db.write(1, 'sodium');
    const kept = keptCopy(db);
    await kept.get();
    db.write(1, 'natrium');
    const [a, b] = [kept.get(), kept.get()];
    db.write(2, 'kalium');
    const c = kept.get();
    expect(Object.fromEntries(await a)).toEqual(Object.fromEntries(await b));
    expect(Object.fromEntries(await c)).toEqual({ 1: 'natrium', 2: 'kalium' });
    expect(db.calls.builds).toBe(1);
  });

  it('a change the log cannot say is seen only by a full read: the reason the limit and failures read whole', async () => {
    const db = fakeDatabase();
    db.write(1, 'sodium');
    const kept = keptCopy(db);
    await kept.get();
    db.writeUnlogged(1, 'natrium');
    expect((await kept.get()).get(1)).toBe('sodium');
    kept.drop();
    expect((await kept.get()).get(1)).toBe('natrium');
  });
});
