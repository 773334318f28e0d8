import { asc, isNotNull } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { changeLog, references } from '../../db/schema.js';
import { useTestApp } from '../../test/test-app.js';
import { readChanges } from './changes.service.js';

// The cursor under concurrent writers (issue 30.1, decision 056). Meant for PostgreSQL
// (TEST_DATABASE_URL), where the writers' transactions really overlap; on PGlite (one connection)
// they take turns and the same checks hold.
const ctx = useTestApp({ demo: false });
const onServer = Boolean(process.env.TEST_DATABASE_URL);

const WRITERS = 8;
const TRANSACTIONS_EACH = 12;

interface Commit {
  ids: number[];
  /** A shared counter read just before COMMIT was sent, and when it had returned. */
  before: number;
  after: number;
}

describe('the change feed under concurrent writers', () => {
  it('one reader polling with the cursor sees every change once, none skipped, in commit order', async () => {
    const db = ctx.database.db;
    let clock = 0;
    const commits: Commit[] = [];
    const jitter = () => sleep(Math.floor(Math.random() * 12));

    const writer = async (w: number) => {
      for (let t = 0; t < TRANSACTIONS_EACH; t++) {
        const commit = await db.transaction(async (tx) => {
          const ids: number[] = [];
          for (let r = 0; r <= (w + t) % 3; r++) {
            const [row] = await tx
              .insert(references)
              .values({ title: `Writer ${w} #${t}.${r}` })
              .returning();
            ids.push(row!.id);
            await jitter();
          }
          await jitter();
          return { ids, before: clock++ };
        });
        commits.push({ ...commit, after: clock++ });
      }
    };

    const seen: { cursor: number; id: number }[] = [];
    let cursor = 0;
    let polls = 0;
    const poll = async () => {
      polls++;
      const page = await readChanges(db, cursor, 7);
      for (const c of page.data) seen.push({ cursor: Number(c.cursor), id: c.id });
      expect(Number(page.next_cursor)).toBeGreaterThanOrEqual(cursor);
      cursor = Number(page.next_cursor);
      return page.has_more;
    };
    let writing = true;
    const reader = (async () => {
      while (writing) {
        await poll();
        await sleep(1);
      }
      while (await poll());
    })();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    writing = false;
    await reader;

    const written = commits.flatMap((c) => c.ids);
    expect(written.length).toBeGreaterThan(WRITERS * TRANSACTIONS_EACH);
    // No duplicate, no gap: exactly the committed changes, in strictly increasing cursor order.
    const cursors = seen.map((s) => s.cursor);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(seen.map((s) => s.id).sort((a, b) => a - b)).toEqual([...written].sort((a, b) => a - b));
    expect(polls).toBeGreaterThan(10);

    // Commit order: a transaction whose commit had returned before another sent its COMMIT has
    // only smaller cursors.
    const cursorOf = new Map(seen.map((s) => [s.id, s.cursor]));
    let ordered = 0;
    for (const a of commits) {
      for (const b of commits) {
        if (a.after < b.before) {
          expect(Math.max(...a.ids.map((id) => cursorOf.get(id)!))).toBeLessThan(
            Math.min(...b.ids.map((id) => cursorOf.get(id)!)),
          );
          ordered++;
        }
      }
    }
    expect(ordered).toBeGreaterThan(100);

    if (onServer) {
      // The writers did overlap: in the order the rows were written (their ids), cursors are out of
      // order somewhere, so numbering at insert time would have let the reader skip a change.
      const rows = await db
        .select({ id: changeLog.id, cursor: changeLog.cursor })
        .from(changeLog)
        .where(isNotNull(changeLog.cursor))
        .orderBy(asc(changeLog.id));
      const inversions = rows.filter((r, i) => i > 0 && r.cursor! < rows[i - 1]!.cursor!).length;
      expect(inversions).toBeGreaterThan(0);
    }
  }, 120_000);
});
