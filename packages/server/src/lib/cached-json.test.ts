import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bvSpecifications } from '../db/schema.js';
import { bumpDataGeneration } from './app-state.repository.js';
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

    const again = await ctx.app.inject({
      url: '/api/bv_specifications',
      headers: { 'if-none-match': plain.headers.etag as string },
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
    const before = await ctx.app.inject({ url: '/export/bv_database.csv' });
    // What every write does: change the data, bump the shared generation, drop this process's cache.
    await ctx.database.db.transaction(async (tx) => {
      await tx.update(bvSpecifications).set({ comment: 'Changed for the cache test' });
      await bumpDataGeneration(tx);
    });
    ctx.app.deps.cache.invalidate();
    const after = await ctx.app.inject({ url: '/export/bv_database.csv' });
    expect(before.body).not.toContain('Changed for the cache test');
    expect(after.body).toContain('Changed for the cache test');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});
