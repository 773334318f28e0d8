import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { exportDatabaseJson, streamPublishedDatabaseJson } from './backup.service.js';

// Issue 44.2: the public whole-database file streams on its first ask. Its head goes out before a
// table is read, and the bytes are those of the file built whole.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
}, 120_000);
afterAll(async () => ctx.close());

describe('the published database file, streamed', () => {
  it('is byte for byte the file built whole, for the same time of export', async () => {
    const exportedAt = new Date('2026-11-29T06:00:00Z');
    const release = { version: '9.9.9', licence: 'CC BY 4.0' };
    const whole = (
      await exportDatabaseJson(ctx.database.db, 'published', null, { release, exportedAt })
    ).join('');
    let streamed = '';
    for await (const chunk of streamPublishedDatabaseJson(ctx.database.db, { release, exportedAt }))
      streamed += chunk;
    expect(streamed).toBe(whole);
    expect(JSON.parse(streamed).tables.analytes.length).toBeGreaterThan(0);
  });

  it('sends its head before it asks the database for anything', async () => {
    let asked = 0;
    const counting = new Proxy(ctx.database.db, {
      get(target, prop, receiver) {
        if (prop === 'transaction') asked += 1;
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const stream = streamPublishedDatabaseJson(counting);
    const first = await stream.next();
    expect(first.value).toMatch(/^\{"format":.*"scope":"published".*"tables":\{$/s);
    expect(asked).toBe(0);
    const second = await stream.next();
    expect(asked).toBe(1);
    expect(second.value).toMatch(/^\n"/);
    await stream.return(undefined);
  });
});
