import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, json, type TestContext } from '../../test/test-app.js';
import { warmUpBeforeReady } from './warm-up.js';

// The start's warm-up (issue 26, point 4; decision 072): `/readyz` says not ready, and why, until
// every published dataset is kept, so a load balancer's first pages are answered from memory; a
// warm-up that takes too long stops holding readiness; 0 turns the wait off.

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

/**
 * Holds the datasets table (an exclusive lock on PostgreSQL; the embedded database runs one
 * transaction at a time) until `release()`: the warm-up cannot read a row meanwhile.
 */
function holdDatasets(c: TestContext) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const done = c.database.db.transaction(async (tx) => {
    await tx.execute(sql`lock table bv_specifications in access exclusive mode`);
    locked();
    await released;
  });
  return { isLocked, release, done };
}

const published = async (c: TestContext) =>
  json<{ meta: { total: number } }>(await c.app.inject('/api/bv_specifications?limit=1&offset=0')).meta.total;

describe('the warm-up before /readyz says ready', () => {
  it('answers 503 "warming up" until every published dataset is kept, then 200', async () => {
    ctx = await createTestApp();
    const hold = holdDatasets(ctx);
    await hold.isLocked;
    const warm = warmUpBeforeReady(ctx.app, 60);
    try {
      const waiting = await ctx.app.inject('/readyz');
      expect(waiting.statusCode).toBe(503);
      expect(json(waiting)).toEqual({
        status: 'unavailable',
        message: 'warming up: reading the published datasets',
      });
    } finally {
      hold.release();
      await hold.done;
    }
    const result = await warm;
    expect(result.complete).toBe(true);
    expect(result.rows).toBeGreaterThan(100);
    expect(ctx.app.publicDatasets.keptRows).toBe(result.rows);
    expect(result.rows).toBe(await published(ctx));
    const ready = await ctx.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(json(ready)).toEqual({ status: 'ready' });
  });

  it('says how far it has come once the published datasets are listed', async () => {
    ctx = await createTestApp({ env: { READ_CACHE_ROWS: '150' } });
    const messages = new Set<string>();
    let over = false;
    const warm = warmUpBeforeReady(ctx.app, 60).finally(() => (over = true));
    // What a probe would read, at every turn of the event loop until the warm-up is over.
    while (!over) {
      const message = ctx.app.lifecycle.warmingUp?.();
      if (message) messages.add(message);
      await new Promise((r) => setImmediate(r));
    }
    expect(await warm).toMatchObject({ complete: true, rows: 150 });
    expect([...messages]).toContain('warming up: reading the published datasets');
    expect([...messages]).toContain('warming up: 150 of 150 published datasets kept');
    for (const m of messages)
      expect(m).toMatch(/^warming up: (reading the published datasets|\d+ of 150 published datasets kept)$/);
    expect((await ctx.app.inject('/readyz')).statusCode).toBe(200);
  });

  it('stops holding readiness after WARM_UP_READY_SECONDS; the fill goes on at its resting pace', async () => {
    ctx = await createTestApp();
    const hold = holdDatasets(ctx);
    await hold.isLocked;
    try {
      const result = await warmUpBeforeReady(ctx.app, 0.05);
      expect(result.complete).toBe(false);
      expect(ctx.app.publicDatasets.warmUpProgress).toBeNull();
      expect(ctx.app.lifecycle.warmingUp).toBeNull();
    } finally {
      hold.release();
      await hold.done;
    }
    // Ready now, with the rows still being filled (the embedded database's ping waited for the lock).
    expect((await ctx.app.inject('/readyz')).statusCode).toBe(200);
    await ctx.app.publicDatasets.settled();
    expect(ctx.app.publicDatasets.keptRows).toBe(await published(ctx));
  });

  it('with 0, is ready at once and still fills in the background', async () => {
    ctx = await createTestApp();
    const result = await warmUpBeforeReady(ctx.app, 0);
    expect(result.complete).toBe(false);
    expect((await ctx.app.inject('/readyz')).statusCode).toBe(200);
    await ctx.app.publicDatasets.settled();
    expect(ctx.app.publicDatasets.keptRows).toBe(await published(ctx));
  });

  it('keeps nothing ahead with READ_CACHE_PREFILL=false, and is ready at once', async () => {
    ctx = await createTestApp({ env: { READ_CACHE_PREFILL: 'false' } });
    const result = await warmUpBeforeReady(ctx.app, 60);
    expect(result).toMatchObject({ rows: 0 });
    expect((await ctx.app.inject('/readyz')).statusCode).toBe(200);
  });
});
