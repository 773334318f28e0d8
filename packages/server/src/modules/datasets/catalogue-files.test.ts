import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
import { datasetsByMeasurand } from '@bvdb/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bvSpecifications, mailingListMembers } from '../../db/schema.js';
import { NO_PUBLIC_DATA, writeTransaction } from '../../lib/write-transaction.js';
import { serviceDeps } from '../../lib/service-deps.js';
import { createTestApp, type TestContext } from '../../test/test-app.js';
import { multiply } from '../../bench/bench-data.js';
import { presentDataset } from './datasets.presenter.js';
import { listDatasets } from './datasets.service.js';

// Decision 039: whole-catalogue answers are built once per change of the data they read and sent
// like static files. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx.close());

const LIST = '/api/bv_specifications';
const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  ctx.app.inject({ method, url, headers });
const builds = () => ctx.app.deps.catalogue.builds;

/** The unpaged list exactly as the streamed answer wrote it before: presenter output, in id order. */
async function expectedList(): Promise<string> {
  const rows = await listDatasets(ctx.app.deps.database.db, { signedIn: false, order: 'id' });
  return `{"code":"success","datasets":[${rows.map((r) => JSON.stringify(presentDataset(r))).join(',')}],"total":${rows.length}}`;
}

describe('whole-catalogue answers as kept files', () => {
  it('builds the unpaged list once for concurrent first asks, with the same bytes as before', async () => {
    // On PostgreSQL a process's first look at the shared counters counts as a change (lib/cached-json.ts):
    // let it happen first, so what is counted below is concurrent asks alone.
    await get(LIST);
    ctx.app.deps.cache.invalidate();
    const before = builds();
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(LIST)));
    expect(builds() - before).toBe(1);
    const expected = await expectedList();
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(expected);
    }
    // Kept: a later ask builds nothing.
    await get(LIST, { 'accept-encoding': 'br' });
    expect(builds() - before).toBe(1);
  });

  it('keeps every key of every item (the shape scripts read)', async () => {
    const body = (await get(LIST)).json<{
      code: string;
      datasets: Record<string, unknown>[];
      total: number;
    }>();
    expect(Object.keys(body)).toEqual(['code', 'datasets', 'total']);
    expect(body.total).toBe(body.datasets.length);
    const [row] = await listDatasets(ctx.app.deps.database.db, { signedIn: false, order: 'id', limit: 1 });
    expect(Object.keys(body.datasets[0]!)).toEqual(Object.keys(presentDataset(row!)));
  });

  it('sends ETag, Content-Length, 304, HEAD, and gzip/br/identity by Accept-Encoding', async () => {
    const plain = await get(LIST);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length);
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const gzip = await get(LIST, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(Number(gzip.headers['content-length'])).toBe(gzip.rawPayload.length);
    expect(zlib.gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
    const br = await get(LIST, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect((await get(LIST, { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBe(
      undefined,
    );
    expect(br.headers.etag).toBe(etag);
    expect(br.headers.vary).toContain('Accept-Encoding');
    const notModified = await get(LIST, { 'if-none-match': etag, 'accept-encoding': 'br' });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    const head = await get(LIST, { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(gzip.headers['content-length']);
    expect(head.headers.etag).toBe(etag);
  });

  it('rebuilds after a write to datasets, not after a write that changes no public data', async () => {
    await get(LIST);
    const before = builds();
    const etag = (await get(LIST)).headers.etag;
    await writeTransaction(
      serviceDeps(ctx.app),
      (tx) => tx.insert(mailingListMembers).values({ email: `x${Date.now()}@example.org` }),
      NO_PUBLIC_DATA,
    );
    ctx.app.deps.cache.invalidate(['metas']);
    expect((await get(LIST)).headers.etag).toBe(etag);
    expect(builds()).toBe(before);

    const [first] = await listDatasets(ctx.app.deps.database.db, { signedIn: false, order: 'id', limit: 1 });
    await writeTransaction(
      serviceDeps(ctx.app),
      (tx) =>
        tx
          .update(bvSpecifications)
          .set({ preanalyticalIssues: 'changed' })
          .where(eq(bvSpecifications.id, first!.spec.id)),
      ['datasets'],
    );
    const after = await get(LIST);
    expect(builds()).toBe(before + 1);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.body).toBe(await expectedList());
    expect(after.body).toContain('"changed"');
  });

  it('serves large copies from disk, and rebuilds a copy removed from disk', async () => {
    const { catalogue } = ctx.app.deps;
    const keep = catalogue.inMemoryMaxBytes;
    catalogue.inMemoryMaxBytes = 0;
    try {
      ctx.app.deps.cache.invalidate(['datasets']);
      const plain = await get(LIST);
      expect(plain.body).toBe(await expectedList());
      const gzip = await get(LIST, { 'accept-encoding': 'gzip' });
      expect(zlib.gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
      const head = await get(LIST, {}, 'HEAD');
      expect(head.headers['content-length']).toBe(String(plain.rawPayload.length));
      const before = builds();
      fs.rmSync(catalogue.dir, { recursive: true, force: true });
      expect((await get(LIST)).body).toBe(plain.body);
      expect(builds()).toBe(before + 1);
    } finally {
      catalogue.inMemoryMaxBytes = keep;
    }
  });

  it('keeps the grouped lists and the headline results with the bytes their schema wrote', async () => {
    for (const url of ['/api/bv_specifications/by_measurand', '/api/bv_specifications/specs_for_analytes']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode).toBe(200);
      const rows = await listDatasets(ctx.app.deps.database.db, { signedIn: false });
      const grouped: Record<string, unknown[]> = {};
      for (const d of rows.map(presentDataset)) (grouped[d.analyte_display_name] ??= []).push(d);
      const expected = JSON.stringify(
        z.encode(datasetsByMeasurand.responses[200], { datasets: grouped } as never),
      );
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(expected);
    }
    // The first ask is streamed while the copy is built (decision 085); the kept copy has its length.
    const streamed = await get('/api/meta_calculations');
    const metas = await get('/api/meta_calculations');
    expect(metas.body).toBe(streamed.body);
    expect(metas.json<{ code: string; data: unknown[]; total: number }>().code).toBe('success');
    expect(Number(metas.headers['content-length'])).toBe(metas.rawPayload.length);
    // A page of it is still an answer of its own.
    const page = await get('/api/meta_calculations?limit=2');
    expect(page.json<{ data: unknown[] }>().data).toHaveLength(2);
  });
});

describe('a build on a larger catalogue', () => {
  it('leaves the event loop free: /healthz answers within 200 ms while the list is built', async () => {
    await multiply(ctx.database, 5);
    ctx.app.deps.cache.invalidate();
    let slowest = 0;
    let probes = 0;
    let building = true;
    const probing = (async () => {
      while (building) {
        const t = performance.now();
        expect((await get('/healthz')).statusCode).toBe(200);
        slowest = Math.max(slowest, performance.now() - t);
        probes += 1;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const list = await get(LIST, { 'accept-encoding': 'br' });
    building = false;
    await probing;
    expect(list.statusCode).toBe(200);
    expect(probes).toBeGreaterThan(3);
    expect(slowest).toBeLessThan(200);
  }, 120_000);
});
