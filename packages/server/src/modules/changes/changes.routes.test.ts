import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bvSpecifications, references } from '../../db/schema.js';
import { editDataset, usedDataset } from '../../test/edit-dataset.js';
import { useTestApp } from '../../test/test-app.js';
import { expectWellFormed } from '../../test/well-formed-xml.js';

// Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL names a server.
const ctx = useTestApp();

interface Version {
  version: number;
  withdrawn: boolean;
  median: number | null;
  datasets: { id: number; value: number }[];
  cause: { kind: string; dataset_id?: number; role: string };
}
interface Change {
  cursor: string;
  at: string;
  entity: string;
  id: number;
  action: string;
  measurand_id?: number;
  estimate_id?: number;
  version?: number;
  from?: Version;
  to?: Version;
}
interface Feed {
  data: Change[];
  next_cursor: string;
  has_more: boolean;
}

const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ url, headers });
const feed = async (q: string) => {
  const res = await get(`/api/v1/changes${q}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Feed>();
};

/** Every change after `since`, a page of `limit` at a time, following next_cursor. */
async function readAll(since = '0', limit = 1000): Promise<Change[]> {
  const all: Change[] = [];
  for (let cursor = since; ;) {
    const page = await feed(`?since=${cursor}&limit=${limit}`);
    all.push(...page.data);
    if (!page.has_more) {
      expect(page.next_cursor).toBe(page.data.at(-1)?.cursor ?? cursor);
      return all;
    }
    cursor = page.next_cursor;
  }
}

const lastCursor = async () => (await readAll()).at(-1)?.cursor ?? '0';

/** Writes made straight on the database bypass the write transaction's cache bump: let go by hand. */
async function readAfterDirectWrites(since: string) {
  ctx.app.deps.cache.invalidate();
  return readAll(since);
}

describe('the change feed (issue 30.1)', () => {
  it('pages in cursor order, each change once, next_cursor resumes exactly after the last', async () => {
    const all = await readAll();
    // The demo seed ran after migration 0007: its measurands, references, datasets and first estimate versions.
    expect(new Set(all.map((c) => c.entity))).toEqual(
      new Set(['estimate', 'dataset', 'reference', 'measurand']),
    );
    const cursors = all.map((c) => Number(c.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(new Set(cursors).size).toBe(cursors.length);
    const paged = await readAll('0', 7);
    expect(paged).toEqual(all);
    const from = all[10]!.cursor;
    expect(await readAll(from, 3)).toEqual(all.slice(11));
    // Nothing new: next_cursor is the cursor given.
    const last = all.at(-1)!.cursor;
    expect(await feed(`?since=${last}`)).toEqual({ data: [], next_cursor: last, has_more: false });
    for (const c of all) {
      if (c.entity !== 'estimate') expect(c.from).toBeUndefined();
      expect(Date.parse(c.at)).not.toBeNaN();
    }
  });

  it('an edit of a published dataset: a dataset change, then the estimate’s change with from/to as in its history; no name', async () => {
    const { specId, cv, analyteId } = await usedDataset(ctx.database);
    const since = await lastCursor();
    await editDataset(ctx.app, specId, { estimates_of_cvi: cv + 7.5 });
    const beforeWorker = await readAll(since);
    expect(beforeWorker).toEqual([
      expect.objectContaining({ entity: 'dataset', id: specId, action: 'changed', measurand_id: analyteId }),
    ]);
    await ctx.app.deps.recompute.settle();
    const after = await readAll(since);
    const estimates = after.filter((c) => c.entity === 'estimate');
    expect(estimates.length).toBeGreaterThanOrEqual(1);
    for (const e of estimates) {
      expect(e).toMatchObject({ action: 'changed', measurand_id: analyteId, id: e.estimate_id });
      const history = (await get(`/api/v1/estimates/${e.estimate_id}/history`)).json<{ data: Version[] }>();
      expect(e.to).toEqual(history.data.find((v) => v.version === e.version));
      expect(e.from).toEqual(history.data.find((v) => v.version === e.version! - 1));
      expect(e.to!.cause).toEqual({ kind: 'dataset', dataset_id: specId, role: 'curator' });
    }
    const cvi = estimates.find((e) => e.to!.datasets.some((d) => d.id === specId && d.value === cv + 7.5));
    expect(cvi?.from!.datasets.find((d) => d.id === specId)!.value).toBe(cv);
    expect(JSON.stringify(after)).not.toContain('Jane');
  });

  it('unpublished datasets never appear; unpublishing is withdrawn, publishing again created, deleting withdrawn', async () => {
    const db = ctx.database.db;
    const [spec] = await db
      .select()
      .from(bvSpecifications)
      .where(eq(bvSpecifications.published, true))
      .limit(1);
    const since = await lastCursor();
    const { id: _id, createdAt: _c, updatedAt: _u, ...values } = spec!;
    const [hidden] = await db
      .insert(bvSpecifications)
      .values({ ...values, uniqueIdentifier: 'FEED-HIDDEN', published: false })
      .returning();
    await db
      .update(bvSpecifications)
      .set({ comment: 'still hidden' })
      .where(eq(bvSpecifications.id, hidden!.id));
    expect(await readAfterDirectWrites(since)).toEqual([]);
    // A save that changes nothing but the stamps is no change.
    await db.update(bvSpecifications).set({ updatedAt: new Date() }).where(eq(bvSpecifications.id, spec!.id));
    expect(await readAfterDirectWrites(since)).toEqual([]);
    await db.update(bvSpecifications).set({ published: false }).where(eq(bvSpecifications.id, spec!.id));
    await db.update(bvSpecifications).set({ published: true }).where(eq(bvSpecifications.id, spec!.id));
    await db.update(bvSpecifications).set({ published: true }).where(eq(bvSpecifications.id, hidden!.id));
    await db.delete(bvSpecifications).where(eq(bvSpecifications.id, hidden!.id));
    const seen = (await readAfterDirectWrites(since)).map((c) => [c.entity, c.id, c.action]);
    expect(seen).toEqual([
      ['dataset', spec!.id, 'withdrawn'],
      ['dataset', spec!.id, 'created'],
      ['dataset', hidden!.id, 'created'],
      ['dataset', hidden!.id, 'withdrawn'],
    ]);
  });

  it('a rolled-back write leaves nothing; a write of many rows in one transaction keeps its own order', async () => {
    const db = ctx.database.db;
    const since = await lastCursor();
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(references).values({ title: 'Never committed' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const made = await db.transaction(async (tx) => {
      const a = await tx.insert(references).values({ title: 'Feed A' }).returning();
      const b = await tx.insert(references).values({ title: 'Feed B' }).returning();
      await tx.update(references).set({ title: 'Feed A, corrected' }).where(eq(references.id, a[0]!.id));
      return [a[0]!.id, b[0]!.id] as const;
    });
    const seen = await readAfterDirectWrites(since);
    expect(seen.map((c) => [c.entity, c.id, c.action])).toEqual([
      ['reference', made[0], 'created'],
      ['reference', made[1], 'created'],
      ['reference', made[0], 'changed'],
    ]);
    expect(seen.every((c) => c.measurand_id === undefined)).toBe(true);
    // One commit: one moment for all of its changes' cursors, in order.
    expect(Number(seen[2]!.cursor) - Number(seen[0]!.cursor)).toBe(2);
  });

  it('a bulk write seals its rows in one pass: consecutive cursors in the order written', async () => {
    const since = await lastCursor();
    const rows = await ctx.database.db
      .insert(references)
      .values(Array.from({ length: 3000 }, (_, i) => ({ title: `Bulk ${i}` })))
      .returning({ id: references.id });
    const seen = await readAfterDirectWrites(since);
    expect(seen.map((c) => c.id)).toEqual(rows.map((r) => r.id));
    const first = Number(seen[0]!.cursor);
    expect(seen.map((c) => Number(c.cursor))).toEqual(rows.map((_, i) => first + i));
    expect(new Set(seen.map((c) => c.at)).size).toBe(1);
  });

  it('answers a bad cursor or limit with a 400 and a message', async () => {
    for (const [q, field] of [
      ['?since=abc', 'since'],
      ['?since=-1', 'since'],
      ['?since=1.5', 'since'],
      ['?since=01', 'since'],
      ['?since=12345678901234567', 'since'],
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?limit=ten', 'limit'],
    ] as const) {
      const res = await get(`/api/v1/changes${q}`);
      expect(res.statusCode, q).toBe(400);
      const body = res.json<{ message: string }>();
      expect(body.message, q).toMatch(new RegExp(field));
    }
    expect((await get('/api/v1/changes?limit=1000&since=0')).statusCode).toBe(200);
    expect((await get('/api/v1/changes?limit=1')).json<Feed>().data).toHaveLength(1);
  });

  it('the JSON and both Atom feeds answer 304 to If-None-Match, and a new ETag after a change', async () => {
    const { analyteId } = await usedDataset(ctx.database);
    const urls = ['/api/v1/changes?since=0&limit=5', '/changes.atom', `/analytes/${analyteId}/changes.atom`];
    const tags: string[] = [];
    for (const url of urls) {
      const first = await get(url);
      expect(first.statusCode, url).toBe(200);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^(W\/)?"/);
      expect((await get(url, { 'if-none-match': etag })).statusCode, url).toBe(304);
      tags.push(etag);
    }
    const { specId, cv } = await usedDataset(ctx.database);
    await editDataset(ctx.app, specId, { estimates_of_cvi: cv + 1 });
    await ctx.app.deps.recompute.settle();
    for (const [i, url] of urls.entries()) {
      const res = await get(url, { 'if-none-match': tags[i]! });
      // The first five changes did not move, but the kept answer was let go and rebuilt (same bytes: same tag).
      if (i === 0) expect([200, 304]).toContain(res.statusCode);
      else expect(res.statusCode, url).toBe(200);
    }
  });

  it('Atom feeds: valid entries newest first, readable titles, links to the measurand page; 404 for an unknown measurand', async () => {
    const { specId, cv, analyteId } = await usedDataset(ctx.database);
    await editDataset(ctx.app, specId, { estimates_of_cvi: cv + 2.25 });
    await ctx.app.deps.recompute.settle();
    const res = await get('/changes.atom');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const xml = res.body;
    expectWellFormed(xml);
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    const entries = xml.split('<entry>').slice(1);
    expect(entries.length).toBe(50);
    const titles = entries.map((e) => /<title>(.*)<\/title>/.exec(e)![1]!);
    // Newest first: the estimate the edit moved, with its values and version.
    expect(titles[0]).toMatch(/^[^:]+, [^:]+: CV[IG] \d+\.\d % → \d+\.\d % \(version \d+\)$/);
    // Absolute links under the request's own origin when PUBLIC_URL is not set (issue 42.9).
    expect(entries[0]).toContain(
      `<link rel="alternate" type="text/html" href="http://localhost:80/analytes/${analyteId}"/>`,
    );
    expect(xml).not.toMatch(/href="\//);
    const ids = entries.map((e) => Number(/<id>tag:bvdb,2026:change:(\d+)<\/id>/.exec(e)![1]));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const own = await get(`/analytes/${analyteId}/changes.atom`);
    expect(own.statusCode).toBe(200);
    expectWellFormed(own.body);
    const ownEntries = own.body.split('<entry>').slice(1);
    expect(ownEntries.length).toBeGreaterThan(0);
    for (const e of ownEntries) expect(e).toContain(`href="http://localhost:80/analytes/${analyteId}"`);
    expect(own.body).toContain(`dataset ${specId} changed`);

    const missing = await get('/analytes/999999/changes.atom');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ message: string }>().message).toMatch(/Measurand 999999/);
    expect((await get('/analytes/abc/changes.atom')).statusCode).toBe(400);
  });

  it('without PUBLIC_URL each origin gets its own links; a forwarded host is not trusted without TRUST_PROXY (issue 42.9)', async () => {
    const one = (await get('/changes.atom', { host: 'bv.one.test' })).body;
    const two = (await get('/changes.atom', { host: 'bv.two.test', 'x-forwarded-host': 'evil.test' })).body;
    expect(one).toContain('href="http://bv.one.test/changes.atom"');
    expect(two).toContain('href="http://bv.two.test/changes.atom"');
    expect(two).not.toContain('evil.test');
  });

  it('absolute links when PUBLIC_URL is set', async () => {
    const previous = ctx.app.deps.config.PUBLIC_URL;
    (ctx.app.deps.config as { PUBLIC_URL?: string }).PUBLIC_URL = 'https://bv.example.org/';
    try {
      // A new reference: the kept feed is rebuilt with the new address.
      await ctx.database.db.insert(references).values({ title: 'Feed address' });
      ctx.app.deps.cache.invalidate();
      const xml = (await get('/changes.atom')).body;
      expect(xml).toContain(
        '<link rel="self" type="application/atom+xml" href="https://bv.example.org/changes.atom"/>',
      );
      expect(xml).toMatch(/href="https:\/\/bv\.example\.org\/references\/\d+"/);
    } finally {
      (ctx.app.deps.config as { PUBLIC_URL?: string }).PUBLIC_URL = previous;
    }
  });
});
