import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/test-app.js';

// Issue 44 point 2 (decision 085): the ask that starts a whole catalogue's build is sent its text as
// it is made; the kept copy is built from the same pieces, and the asks that follow get it with its
// ETag and length, as before.
describe('a whole catalogue on its first ask', () => {
  const ctx = useTestApp({ demo: true });

  it('streams the build to the first ask, then sends the kept copy: the same bytes', async () => {
    for (const url of ['/api/v1/bulk/datasets', '/export/bv_database.csv']) {
      const builds = ctx.app.deps.catalogue.builds;
      const first = await ctx.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(first.statusCode).toBe(200);
      expect(ctx.app.deps.catalogue.builds).toBe(builds + 1);
      // Sent while it was made: no length, no ETag yet.
      expect(first.headers.etag).toBeUndefined();
      expect(first.headers['content-length']).toBeUndefined();
      expect(first.headers['content-encoding']).toBe('gzip');
      const streamed = zlib.gunzipSync(first.rawPayload).toString();

      const again = await ctx.app.inject({ url });
      expect(again.statusCode).toBe(200);
      expect(ctx.app.deps.catalogue.builds).toBe(builds + 1);
      expect(again.headers.etag).toBeDefined();
      expect(again.headers['content-length']).toBe(String(again.rawPayload.length));
      expect(again.body).toBe(streamed);
      expect(streamed.length).toBeGreaterThan(1000);
    }
  });

  it('a HEAD waits for the kept copy (length and ETag), as before', async () => {
    ctx.app.deps.cache.invalidate();
    const head = await ctx.app.inject({ method: 'HEAD', url: '/api/v1/bulk/datasets' });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBeDefined();
    expect(Number(head.headers['content-length'])).toBeGreaterThan(1000);
  });
});
