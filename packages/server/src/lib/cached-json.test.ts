import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bvSpecifications } from '../db/schema.js';
import { MailingListService } from '../modules/mailing-list/mailing-list.service.js';
import { serviceDeps } from './service-deps.js';
import { bumpDataGeneration } from './app-state.repository.js';
import { DATA_SCOPES } from './response-cache.js';
import { signInAs } from '../test/sign-in.js';
import { useTestApp } from '../test/test-app.js';

const ctx = useTestApp();

describe('cached public answers', () => {
  it('sends the dataset list pre-compressed, the same bytes as the plain answer, and 304 when unchanged', async () => {
    const plain = await ctx.app.inject({ url: '/api/bv_specifications' });
    const br = await ctx.app.inject({
      url: '/api/bv_specifications',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    const gzip = await ctx.app.inject({
      url: '/api/bv_specifications',
      headers: { 'accept-encoding': 'gzip;q=1, br;q=0' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);

    // The first ask was streamed while the copy was built (decision 085); the kept copy has the ETag.
    expect(plain.headers.etag).toBeUndefined();
    expect(br.headers.etag).toBeDefined();
    const again = await ctx.app.inject({
      url: '/api/bv_specifications',
      headers: { 'if-none-match': br.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('builds an export once for everyone, and afresh for a signed-in curator (who sees unpublished data)', async () => {
    const suggestions = (await ctx.app.inject({ url: '/autocomplete?query=Creatinine' })).json<
      { id: number }[]
    >();
    const id = suggestions[0]!.id;
    const url = `/export_by_analyte/${id}.xlsx`;
    const first = await ctx.app.inject({ url });
    const second = await ctx.app.inject({ url });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-disposition']).toMatch(/^attachment; filename="BV_/);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);

    const { headers } = await signInAs(ctx.app);
    const personal = await ctx.app.inject({ url, headers });
    expect(personal.statusCode).toBe(200);
    expect(personal.headers['cache-control']).toBe('private, no-store');
    expect(personal.headers.etag).toBeUndefined();
  });

  it('gives a new export once the data changes', async () => {
    await ctx.app.inject({ url: '/export/bv_database.csv' }); // streamed while the copy is built
    const before = await ctx.app.inject({ url: '/export/bv_database.csv' });
    // What every write does: change the data, bump the shared generation, drop this process's cache.
    // The counters it left are remembered, as writeTransaction does, so the once-a-second check of the
    // shared counters (PostgreSQL server) does not drop the cache a second time in a later test.
    const shared = await ctx.database.db.transaction(async (tx) => {
      await tx.update(bvSpecifications).set({ comment: 'Changed for the cache test' });
      return bumpDataGeneration(tx);
    });
    ctx.app.deps.cache.invalidate(DATA_SCOPES, shared);
    const streamed = await ctx.app.inject({ url: '/export/bv_database.csv' });
    const after = await ctx.app.inject({ url: '/export/bv_database.csv' });
    expect(streamed.body).toBe(after.body);
    expect(before.body).not.toContain('Changed for the cache test');
    expect(after.body).toContain('Changed for the cache test');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  /** Changes the data behind the cache's back (no generation bump): a kept answer does not show it. */
  const markDatasets = (comment: string) => ctx.database.db.update(bvSpecifications).set({ comment });

  it('keeps every answer when a visitor subscribes to the mailing list (no public data changed)', async () => {
    // The paged legacy list is a cached answer (the unpaged one is streamed from the database).
    const url = '/api/bv_specifications?limit=100&offset=0';
    expect((await ctx.app.inject({ url })).body).toContain('"comment"');
    await markDatasets('Marked before the subscribe');
    await new MailingListService(serviceDeps(ctx.app), null).add({ email: 'reader@example.org' });
    const after = await ctx.app.inject({ url });
    expect(after.body).not.toContain('Marked before the subscribe');
  });

  it('keeps the lookup answers when a reference changes, and drops the dataset answers', async () => {
    const { headers } = await signInAs(ctx.app);
    await ctx.app.inject({ url: '/api/lookups' });
    await ctx.app.inject({ url: '/api/bv_specifications' });
    const lookups = ctx.app.deps.cache.stampOf(['lookups']);
    await markDatasets('Marked before the reference write');
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/references',
      headers,
      payload: {
        title: 'A reference for the cache test',
        author: 'Cache, T.',
        journal: 'J',
        year_of_publication: 2024,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(ctx.app.deps.cache.stampOf(['lookups'])).toBe(lookups);
    const datasets = await ctx.app.inject({ url: '/api/bv_specifications' });
    expect(datasets.body).toContain('Marked before the reference write');
  });

  it('ignores unknown query parameters: a cache-buster reaches the kept answer', async () => {
    const first = await ctx.app.inject({ url: '/api/bv_specifications?limit=5&utm_source=a' });
    await markDatasets('Marked after the first read');
    const second = await ctx.app.inject({ url: '/api/bv_specifications?nocache=12345&limit=5' });
    expect(second.body).toBe(first.body);
    await ctx.app.inject({ url: '/export/bv_database.csv?x=0' }); // streamed while the copy is built
    const csv = await ctx.app.inject({ url: '/export/bv_database.csv?x=1' });
    await markDatasets('Marked after the first export');
    const csvAgain = await ctx.app.inject({ url: '/export/bv_database.csv?x=2' });
    expect(csv.headers.etag).toBeDefined();
    expect(csvAgain.headers.etag).toBe(csv.headers.etag);
    expect(csvAgain.body).not.toContain('Marked after the first export');
  });
});
