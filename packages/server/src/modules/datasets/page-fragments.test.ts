import zlib from 'node:zlib';
import { listDatasets as listRoute, v1ListDatasets } from '@bvdb/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../../app.js';
import { createSignedInTestApp, type SignedIn } from '../../test/sign-in.js';
import { testConfig, type TestContext } from '../../test/test-app.js';
import { presentDataset, presentLegacyPageItem } from './datasets.presenter.js';
import * as repo from './datasets.repository.js';
import { upgrades } from '../../lib/response-cache.js';

// Decision 065: the public pages are concatenations of each row's JSON, made once per kept row. What
// leaves must be byte for byte what the route's serialiser wrote for the whole page before (the
// legacy form is a contract), with an ETag the same in every process for the same data.

let ctx: TestContext;
let s: SignedIn;
let second: FastifyInstance;
beforeAll(async () => {
  ({ ctx, s } = await createSignedInTestApp());
  // A second server on the same database (several processes on one PostgreSQL; here, one PGlite).
  second = await buildApp({ config: testConfig(), database: ctx.database });
  await second.ready();
});
afterAll(async () => {
  await second.close();
  await ctx.close();
});

/** The page as the previous path made it: every row presented, then the route's schema and JSON.stringify. */
async function oldLegacyPage(limit: number, offset: number, updatedSince?: Date): Promise<string> {
  const f = { signedIn: false, ...(updatedSince ? { updatedSince } : {}) };
  const rows = await repo.listDatasets(ctx.database.db, { ...f, order: 'id', limit, offset });
  const total = await repo.countDatasets(ctx.database.db, f);
  const page = { meta: { total }, data: rows.map(presentLegacyPageItem) };
  return JSON.stringify(z.encode(listRoute.responses[200], page));
}

async function oldV1Page(limit: number, offset: number, analyteId?: number): Promise<string> {
  const f = { signedIn: false, ...(analyteId !== undefined ? { analyteId } : {}) };
  const rows = await repo.listDatasets(ctx.database.db, { ...f, order: 'id', limit, offset });
  const total = await repo.countDatasets(ctx.database.db, f);
  const next = offset + limit;
  const page = {
    meta: { total, limit, offset, next_offset: next < total ? next : null },
    data: rows.map(presentDataset),
  };
  return JSON.stringify(z.encode(v1ListDatasets.responses[200], page));
}

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers });

describe('public pages made of kept items', () => {
  it('send the bytes the whole-page serialiser sent, for every page size and filter', async () => {
    const legacy: [number, number, Date?][] = [
      [100, 0],
      [100, 100],
      [100, 200],
      [20, 40],
      [1, 0],
      [1000, 0],
      [5, 100_000], // past the end: an empty page
      [50, 0, new Date('2000-01-01T00:00:00Z')],
    ];
    for (const [limit, offset, since] of legacy) {
      const url = `/api/bv_specifications?limit=${limit}&offset=${offset}${since ? `&updated_since=${since.toISOString()}` : ''}`;
      const res = await get(ctx.app, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(await oldLegacyPage(limit, offset, since));
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    const [{ analyte_id: analyteId }] = (await get(ctx.app, '/api/v1/datasets?limit=1&offset=0')).json<{
      data: { analyte_id: number }[];
    }>().data as [{ analyte_id: number }];
    const v1: [number, number, number?][] = [
      [100, 0],
      [100, 100],
      [7, 190],
      [3, 0, analyteId],
    ];
    for (const [limit, offset, analyte] of v1) {
      const url = `/api/v1/datasets?limit=${limit}&offset=${offset}${analyte !== undefined ? `&analyte_id=${analyte}` : ''}`;
      const res = await get(ctx.app, url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(await oldV1Page(limit, offset, analyte));
    }
  });

  it('compressed copies (made off the event loop) unpack to the same bytes', async () => {
    const url = '/api/bv_specifications?limit=100&offset=0';
    const plain = (await get(ctx.app, url)).rawPayload;
    const br = await get(ctx.app, url, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain)).toBe(true);
    const gzip = await get(ctx.app, '/api/v1/datasets?limit=100&offset=100', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(await oldV1Page(100, 100));
  });

  it('have an ETag that two servers on one database agree on, and that answers If-None-Match', async () => {
    for (const url of [
      '/api/bv_specifications?limit=100&offset=100',
      '/api/v1/datasets?limit=20&offset=40',
    ]) {
      const a = await get(ctx.app, url);
      const b = await get(second, url);
      expect(a.headers.etag).toMatch(/^W\/"[\w-]{27}"$/);
      expect(b.headers.etag).toBe(a.headers.etag);
      expect(b.body).toBe(a.body);
      expect((await get(second, url, { 'if-none-match': a.headers.etag! })).statusCode).toBe(304);
    }
    const pages = await Promise.all(
      [0, 100, 200].map(
        async (o) => (await get(ctx.app, `/api/bv_specifications?limit=100&offset=${o}`)).headers.etag,
      ),
    );
    expect(new Set(pages).size).toBe(3);
  });

  it('send a quick first copy that unpacks to the page, then the kept copy, with one ETag', async () => {
    // Decision 069: the first ask of a large answer gets a quickly compressed copy; the kept settings'
    // copy replaces it in the background once the answer is asked again (decision 104). Whichever is sent, the client gets the same page, the
    // same ETag, a Content-Length of what was sent, and a 304 on revalidation.
    const KEPT = {
      br: (b: Buffer) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } }),
      gzip: (b: Buffer) => zlib.gzipSync(b, { level: 6 }),
    };
    const unpack = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync };
    const cases = [
      ['br', '/api/bv_specifications?limit=100&offset=3', () => oldLegacyPage(100, 3)],
      ['gzip', '/api/v1/datasets?limit=100&offset=5', () => oldV1Page(100, 5)],
    ] as const;
    for (const [encoding, url, expected] of cases) {
      const page = Buffer.from(await expected());
      const first = await get(ctx.app, url, { 'accept-encoding': encoding });
      expect(first.statusCode, url).toBe(200);
      expect(first.headers['content-encoding']).toBe(encoding);
      expect(unpack[encoding](first.rawPayload).equals(page), url).toBe(true);
      expect(Number(first.headers['content-length'])).toBe(first.rawPayload.length);
      // The quick copy is not the kept one (else there would be nothing to upgrade).
      expect(first.rawPayload.equals(KEPT[encoding](page)), url).toBe(false);
      const etag = first.headers.etag!;
      expect((await get(second, url)).headers.etag).toBe(etag);
      const revalidated = await get(ctx.app, url, { 'accept-encoding': encoding, 'if-none-match': etag });
      expect(revalidated.statusCode).toBe(304);

      // Asked once, nothing more is made (decision 104); asked again, the quick copy is sent once
      // more and the kept settings' copy is made in the background.
      await upgrades.idle();
      const again = await get(ctx.app, url, { 'accept-encoding': encoding });
      expect(again.rawPayload.equals(first.rawPayload), url).toBe(true);
      await upgrades.idle();
      const later = await get(ctx.app, url, { 'accept-encoding': encoding });
      expect(later.rawPayload.equals(KEPT[encoding](page)), url).toBe(true);
      expect(later.rawPayload.length).toBeLessThan(first.rawPayload.length);
      expect(unpack[encoding](later.rawPayload).equals(page)).toBe(true);
      expect(Number(later.headers['content-length'])).toBe(later.rawPayload.length);
      expect(later.headers.etag).toBe(etag);
      expect((await get(ctx.app, url)).rawPayload.equals(page)).toBe(true);
    }
  });

  it('show a write on the next first-time page, with a new ETag', async () => {
    // Rows kept (and their items made) by an earlier page; this page is asked for the first time.
    await get(ctx.app, '/api/v1/datasets?limit=100&offset=0');
    const url = '/api/bv_specifications?limit=10&offset=0';
    const before = await get(ctx.app, url);
    const target = before.json<{ data: { id: number }[] }>().data[2]!.id;
    const form = (
      await ctx.app.inject({ url: `/api/bv_specifications/${target}/form`, headers: { cookie: s.cookie } })
    ).json<{ version: number; bv_specification: Record<string, unknown> }>();
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `/bv_specifications/${target}`,
      payload: {
        bv_specification: { ...form.bv_specification, comment: 'Seen at once' },
        version: form.version,
      },
      headers: s.headers,
    });
    expect(put.statusCode, put.body).toBe(200);
    for (const page of [url, '/api/v1/datasets?limit=7&offset=0']) {
      const after = await get(ctx.app, page);
      const item = after
        .json<{ data: { id: number; comment: string | null }[] }>()
        .data.find((d) => d.id === target);
      expect(item?.comment, page).toBe('Seen at once');
    }
    const after = await get(ctx.app, url);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toBe(await oldLegacyPage(10, 0));
  });

  it('give a signed-in curator the same bytes for the same rows, never kept', async () => {
    const url = '/api/bv_specifications?limit=100&offset=0';
    const res = await ctx.app.inject({ url, headers: { cookie: s.cookie } });
    expect(res.headers['cache-control']).toBe('private, no-store');
    const rows = await repo.listDatasets(ctx.database.db, {
      signedIn: true,
      order: 'id',
      limit: 100,
      offset: 0,
    });
    const total = await repo.countDatasets(ctx.database.db, { signedIn: true });
    expect(res.body).toBe(
      JSON.stringify(
        z.encode(listRoute.responses[200], { meta: { total }, data: rows.map(presentLegacyPageItem) }),
      ),
    );
  });
});
