import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentEtag } from '../../lib/content-etag.js';
import { requestStarted } from '../../lib/requests-in-flight.js';
import { editDataset } from '../../test/edit-dataset.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import type { TestContext } from '../../test/test-app.js';
import { preparedRecordsIdle } from './index.js';

// Decision 113: once the background fill has kept the public rows, each one's two public records are
// made ahead in the compression thread (their gzip copies and ETags). A first-time record then goes
// to a client that takes gzip as that copy; before, it went as built while its copy was made.
// Whatever is sent must be the record the route's serialiser writes.

let ctx: TestContext;
let s: SignedIn;
let ids: number[];
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
  const page = await ctx.app.inject({ url: '/api/v1/datasets?limit=1000&offset=0' }); // starts the fill
  ids = page.json<{ data: { id: number }[] }>().data.map((d) => d.id);
  await ctx.app.publicDatasets.settled();
  await preparedRecordsIdle();
});
afterAll(async () => ctx.close());

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ url, headers });
/** The record as a signed-in reader gets it: presented and written by the route's serialiser, never kept. */
const serialised = async (url: string) => (await get(url, { cookie: s.cookie })).rawPayload;

const RECORDS = [(id: number) => `/api/bv_specifications/${id}`, (id: number) => `/api/v1/datasets/${id}`];

describe('public records made ahead by the fill', () => {
  it('go as gzip on their first ask, unpack to the serialiser’s bytes, with their body’s ETag', async () => {
    expect(ids.length).toBeGreaterThan(100);
    for (const id of ids.filter((_, k) => k % 9 === 0)) {
      for (const urlOf of RECORDS) {
        const url = urlOf(id);
        const first = await get(url, BROWSER);
        expect(first.statusCode, url).toBe(200);
        expect(first.headers['content-encoding'], url).toBe('gzip');
        expect(first.headers.vary).toContain('Accept-Encoding');
        expect(Number(first.headers['content-length'])).toBe(first.rawPayload.length);
        const plain = await serialised(url);
        expect(zlib.gunzipSync(first.rawPayload).equals(plain), url).toBe(true);
        expect(first.headers.etag, url).toBe(contentEtag(plain));
        // A client that takes no encoding gets the bytes; one that has them gets 304.
        const identity = await get(url);
        expect(identity.headers['content-encoding']).toBeUndefined();
        expect(identity.rawPayload.equals(plain), url).toBe(true);
        expect(identity.headers.etag).toBe(first.headers.etag);
        expect((await get(url, { ...BROWSER, 'if-none-match': first.headers.etag! })).statusCode).toBe(304);
      }
    }
  });

  it('after an edit, the changed record is sent as it now is, never from the copy made before', async () => {
    const target = ids[7]!;
    const urls = RECORDS.map((urlOf) => urlOf(target));
    const before = await Promise.all(urls.map((url) => get(url, BROWSER)));
    await editDataset(ctx.app, target, { comment: 'Made ahead anew' });
    for (const [k, url] of urls.entries()) {
      const after = await get(url, BROWSER);
      const body =
        after.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(after.rawPayload) : after.rawPayload;
      expect(body.equals(await serialised(url)), url).toBe(true);
      expect(body.toString(), url).toContain('Made ahead anew');
      expect(after.headers.etag, url).not.toBe(before[k]!.headers.etag);
    }
    // Once the fill has kept the changed row again, its records are made ahead anew.
    await ctx.app.inject({ url: '/api/v1/datasets?limit=1&offset=0' });
    await ctx.app.publicDatasets.settled();
    await preparedRecordsIdle();
    const other = ids[8]!;
    for (const urlOf of RECORDS) {
      const res = await get(urlOf(other), BROWSER);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(res.rawPayload).equals(await serialised(urlOf(other)))).toBe(true);
    }
  });

  // Decision 114: right after a start the records of every kept row were ~3 s of the compression
  // thread at 100× the demo while fifty first pages were asked at once; now they wait for a moment
  // with no request being answered (at most a second each batch).
  it('are made at a moment no request is being answered', async () => {
    const end = requestStarted(); // a request being answered, as long as the test holds it
    try {
      await editDataset(ctx.app, ids[20]!, { comment: 'Made in a quiet moment' });
      await ctx.app.inject({ url: '/api/v1/datasets?limit=1&offset=0' }); // the fill keeps it again
      await ctx.app.publicDatasets.settled();
      const made = preparedRecordsIdle().then(() => 'made');
      const later = new Promise((resolve) => setTimeout(() => resolve('waiting'), 300));
      expect(await Promise.race([made, later])).toBe('waiting');
      end();
      expect(await made).toBe('made');
    } finally {
      end();
    }
    const res = await get(RECORDS[1]!(ids[20]!), BROWSER);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toContain('Made in a quiet moment');
  });
});
