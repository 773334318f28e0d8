import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { analytes } from '../../db/schema.js';
import { writeTransaction } from '../../lib/write-transaction.js';
import { useTestApp } from '../../test/test-app.js';

// One measurand by id is kept in memory for everyone (decision 035): it must revalidate, and a write
// to the measurands must show at once.
const ctx = useTestApp();
const get = (id: number, headers: Record<string, string> = {}) =>
  ctx.app.inject({ url: `/api/analytes/${id}`, headers });

describe('GET /api/analytes/:id', () => {
  it('answers the measurand with an ETag, and 304 when the client has it', async () => {
    const first = await get(1);
    expect(first.statusCode).toBe(200);
    expect(first.json<{ analyte: { id: number } }>().analyte.id).toBe(1);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    expect((await get(1, { 'if-none-match': etag })).statusCode).toBe(304);
  });

  it('answers 404 with a message for a measurand that does not exist, and keeps no such answer', async () => {
    const res = await get(987_654);
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toMatch(/Measurand 987654 not found/);
    expect((await get(987_654)).statusCode).toBe(404);
  });

  it('shows a change to the measurands at once, though the earlier answer was kept', async () => {
    const before = (await get(2)).json<{ analyte: { display_name: string } }>().analyte.display_name;
    const { db } = ctx.app.deps.database;
    await writeTransaction(
      { db, cache: ctx.app.deps.cache },
      (tx) =>
        tx
          .update(analytes)
          .set({ displayName: `${before} (renamed)` })
          .where(eq(analytes.id, 2)),
      ['analytes'],
    );
    const after = await get(2);
    expect(after.json<{ analyte: { display_name: string } }>().analyte.display_name).toBe(
      `${before} (renamed)`,
    );
  });
});
