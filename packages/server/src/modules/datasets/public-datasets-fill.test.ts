import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bvSpecifications } from '../../db/schema.js';
import { ResponseCache } from '../../lib/response-cache.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { PublicDatasets } from './public-datasets.service.js';

// The background fill of the kept public rows (issue 26, point 4; decision 049): a first-time page
// finds its rows in memory, a write is followed by a refill with the new values, and the fill stays
// within its bounds (the row budget, the app's close).

let ctx: TestContext;
let published: number;
beforeAll(async () => {
  ctx = await createTestApp();
  published = (
    await new PublicDatasets(ctx.database.db, new ResponseCache(), 0).page({ limit: 1, offset: 0 })
  ).total;
});
afterAll(async () => ctx.close());

const kept = (prefill: boolean, maxRows = 25_000) => {
  const cache = new ResponseCache();
  return { cache, rows: new PublicDatasets(ctx.database.db, cache, maxRows, prefill) };
};

describe('the kept public rows filled in the background', () => {
  it('holds every published dataset once the fill is over, with nothing read yet', async () => {
    expect(published).toBeGreaterThan(100);
    const { rows } = kept(true);
    rows.fillInBackground();
    await rows.settled();
    expect(rows.keptRows).toBe(published);
    const page = await rows.page({ limit: 100, offset: 100 });
    expect(page.rows).toHaveLength(100);
    expect(page.total).toBe(published);
  });

  it('is refilled after a write, on the next read, with the new values', async () => {
    const { cache, rows } = kept(true);
    rows.fillInBackground();
    await rows.settled();
    const [target] = (await rows.page({ limit: 1, offset: 7 })).rows;
    const id = target!.spec.id;
    const before = target!.spec.estimatesOfCvi;
    await ctx.database.db
      .update(bvSpecifications)
      .set({ estimatesOfCvi: 77.7 })
      .where(eq(bvSpecifications.id, id));
    try {
      cache.invalidate(['datasets']);
      expect(rows.keptRows).toBe(0); // stale at once, never served
      expect((await rows.one(id))!.spec.estimatesOfCvi).toBe(77.7);
      await rows.settled();
      expect(rows.keptRows).toBe(published);
      expect((await rows.page({ limit: 1, offset: 7 })).rows[0]!.spec.estimatesOfCvi).toBe(77.7);
    } finally {
      await ctx.database.db
        .update(bvSpecifications)
        .set({ estimatesOfCvi: before })
        .where(eq(bvSpecifications.id, id));
    }
  });

  it('keeps no more rows than its budget', async () => {
    const { rows } = kept(true, 50);
    rows.fillInBackground();
    await rows.settled();
    expect(rows.keptRows).toBe(50);
  });

  it('reads only what is asked when turned off (READ_CACHE_PREFILL=false)', async () => {
    const { rows } = kept(false);
    rows.fillInBackground();
    await rows.settled();
    expect(rows.keptRows).toBe(0);
    await rows.page({ limit: 10, offset: 0 });
    await rows.settled();
    expect(rows.keptRows).toBe(10);
  });

  it('stops when closed, and starts no fill afterwards', async () => {
    const { cache, rows } = kept(true);
    rows.fillInBackground();
    await rows.close();
    const after = rows.keptRows;
    expect(after).toBeLessThan(published);
    cache.invalidate(['datasets']);
    await rows.one(1);
    await rows.settled();
    expect(rows.keptRows).toBeLessThanOrEqual(1);
  });
});
