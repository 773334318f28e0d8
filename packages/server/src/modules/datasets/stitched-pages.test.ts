import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fragmentChains } from '../../lib/fragment-chains.js';
import { upgrades } from '../../lib/response-cache.js';
import { editDataset } from '../../test/edit-dataset.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';

// Decision 107: once the background fill has kept the public rows, their page items are chained in
// the background, and a first-time page goes to a client that takes gzip as its copy stitched from
// those pieces, with nothing compressed on the event loop. Whatever is sent must be the page.

let ctx: TestContext;
let s: SignedIn;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
  await ctx.app.inject({ url: '/api/v1/datasets?limit=1&offset=0' }); // starts the fill
  await ctx.app.publicDatasets.settled();
  await fragmentChains.idle();
});
afterAll(async () => ctx.close());

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ url, headers });

/** The page as a client that takes no encoding gets it (the bytes every copy must unpack to). */
const plainOf = async (url: string) => (await get(url)).rawPayload;

describe('first-time pages stitched from their items', () => {
  it('go as gzip to a browser, unpack to the page, with its ETag and length; br once asked again', async () => {
    for (const url of [
      '/api/bv_specifications?limit=100&offset=17',
      '/api/bv_specifications?limit=20&offset=140',
      '/api/v1/datasets?limit=100&offset=50',
    ]) {
      const first = await get(url, BROWSER);
      expect(first.statusCode, url).toBe(200);
      // A browser prefers br; the stitched gzip is what is ready, so it goes (it takes gzip too).
      expect(first.headers['content-encoding'], url).toBe('gzip');
      expect(first.headers.vary).toContain('Accept-Encoding');
      expect(Number(first.headers['content-length'])).toBe(first.rawPayload.length);
      const plain = await plainOf(url);
      expect(zlib.gunzipSync(first.rawPayload).equals(plain), url).toBe(true);
      expect(first.rawPayload.length, url).toBeLessThan(plain.length / 4);
      const etag = first.headers.etag!;
      expect((await get(url)).headers.etag).toBe(etag);
      expect((await get(url, { ...BROWSER, 'if-none-match': etag })).statusCode).toBe(304);

      // Asked again: the same copy, and br with the kept settings made in the background.
      const again = await get(url, BROWSER);
      expect(again.rawPayload.equals(first.rawPayload), url).toBe(true);
      await upgrades.idle();
      const later = await get(url, BROWSER);
      expect(later.headers['content-encoding'], url).toBe('br');
      expect(zlib.brotliDecompressSync(later.rawPayload).equals(plain), url).toBe(true);
      expect(later.headers.etag).toBe(etag);
    }
  });

  it('every page of every size unpacks to the bytes sent uncompressed', async () => {
    for (const limit of [2, 20, 37, 100, 1000]) {
      for (let offset = 0; offset < 202; offset += limit === 1000 ? 202 : 23) {
        for (const base of ['/api/bv_specifications', '/api/v1/datasets']) {
          const url = `${base}?limit=${limit}&offset=${offset}`;
          const gzip = await get(url, { 'accept-encoding': 'gzip' });
          const plain = await plainOf(url);
          const body =
            gzip.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(gzip.rawPayload) : gzip.rawPayload;
          expect(body.equals(plain), url).toBe(true);
        }
      }
    }
  });

  it('a filter by measurand (items that do not follow each other) gets a copy made whole', async () => {
    const { data } = (await get('/api/v1/datasets?limit=1&offset=0')).json<{
      data: { analyte_id: number }[];
    }>();
    const url = `/api/v1/datasets?limit=100&offset=0&analyte_id=${data[0]!.analyte_id}`;
    const res = await get(url, BROWSER);
    const plain = await plainOf(url);
    const encoding = res.headers['content-encoding'];
    const body =
      encoding === 'br'
        ? zlib.brotliDecompressSync(res.rawPayload)
        : encoding === 'gzip'
          ? zlib.gunzipSync(res.rawPayload)
          : res.rawPayload;
    expect(body.equals(plain)).toBe(true);
  });

  it('after an edit, a page holding the changed dataset is still its bytes, showing the change', async () => {
    const url = '/api/bv_specifications?limit=20&offset=40';
    const before = (await plainOf(url)).toString();
    const target = JSON.parse(before).data[5].id as number;
    await editDataset(ctx.app, target, { comment: 'Stitched anew' });
    // The fill reads the changed row again and chains it and the one after it.
    await ctx.app.inject({ url: '/api/v1/datasets?limit=1&offset=0' });
    await ctx.app.publicDatasets.settled();
    await fragmentChains.idle();
    const res = await get(url, BROWSER);
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = zlib.gunzipSync(res.rawPayload);
    expect(body.equals(await plainOf(url))).toBe(true);
    expect(JSON.parse(body.toString()).data[5].comment).toBe('Stitched anew');
  });

  it('a signed-in curator gets the page as built, never kept', async () => {
    const url = '/api/bv_specifications?limit=100&offset=0';
    const res = await ctx.app.inject({ url, headers: { cookie: s.cookie } });
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json<{ data: unknown[] }>().data).toHaveLength(100);
  });
});
