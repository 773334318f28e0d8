import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bvSpecifications } from '../db/schema.js';
import { serviceDeps } from '../lib/service-deps.js';
import { createUser } from '../modules/auth/users.service.js';
import { signInAs } from '../test/sign-in.js';
import { createTestApp, type TestContext } from '../test/test-app.js';

// A built app in miniature whose manifest lists its pages, as the web build writes it
// (packages/web/build/page-preloads-plugin.ts from packages/web/src/app/route-table.ts).
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-dist-'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><title>bvdb shell</title><div id="root"></div>',
);
fs.writeFileSync(
  path.join(dist, 'page-preloads.json'),
  JSON.stringify({
    visitorData: ['/api/session'],
    everyPageData: ['/api/site'],
    everyPageScripts: [],
    pages: [{ page: '/analytes/:id', scripts: [], data: ['/api/analytes/:id'], ssr: false }],
    known: [
      { page: '/' },
      { page: '/about' },
      { page: '/references/new' },
      { page: '/references/:id', record: 'reference' },
      { page: '/bv_specifications/:id', record: 'dataset' },
      { page: '/bv_specifications/:id/edit', record: 'dataset' },
      { page: '/analytes/:id', record: 'measurand' },
      { page: '/appraisals' },
      { page: '/appraisals/board' },
      { page: '/appraisals/agreement' },
      { page: '/appraisals/:id', record: 'appraisal' },
      { page: '/applications/menu' },
      { page: '/applications/menu/:id', record: 'kept-menu' },
    ],
  }),
);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ url, headers: { accept: 'text/html', ...headers } });

/** A published demo dataset, with its measurand and reference. */
const demoDataset = async (identifier: string) => {
  const [spec] = await ctx.database.db
    .select()
    .from(bvSpecifications)
    .where(eq(bvSpecifications.uniqueIdentifier, identifier));
  return spec!;
};

describe('status codes of pages', () => {
  it('answers a path no page has with 404 and the app (which shows its "Page not found")', async () => {
    for (const url of ['/no-such-page', '/about/more', '/references/1/nothing', '/analytes']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain('bvdb shell');
    }
  });

  it('answers known pages 200, with or without a trailing slash or a query', async () => {
    for (const url of ['/', '/about', '/about/', '/references/new', '/about?x=1']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('bvdb shell');
    }
  });

  it("answers a record's page 200 when the record is there and 404 when it is not", async () => {
    const spec = await demoDataset('DEMO-001');
    for (const url of [
      `/analytes/${spec.analyteId}`,
      `/references/${spec.referenceId}`,
      `/bv_specifications/${spec.id}`,
      `/bv_specifications/${spec.id}/edit`,
    ])
      expect((await page(url)).statusCode, url).toBe(200);
    for (const url of [
      '/analytes/999999',
      '/references/999999',
      '/bv_specifications/999999',
      '/bv_specifications/999999/edit',
      '/analytes/abc',
      '/analytes/0',
      '/analytes/1.5',
      '/analytes/99999999999',
    ]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('bvdb shell');
    }
  });

  it("answers an unpublished dataset's page 404 to the public and 200 to a curator", async () => {
    const spec = await demoDataset('DEMO-003');
    const url = `/bv_specifications/${spec.id}`;
    expect((await page(url)).statusCode).toBe(200);
    await ctx.database.db
      .update(bvSpecifications)
      .set({ published: false })
      .where(eq(bvSpecifications.id, spec.id));
    ctx.app.deps.cache.invalidate();
    expect((await page(url)).statusCode).toBe(404);
    const s = await signInAs(ctx.app);
    expect((await page(url, { cookie: s.cookie })).statusCode).toBe(200);
  });

  it("answers an appraisal's page 200 when the appraisal is there (for anyone: the page asks to sign in) and 404 when not", async () => {
    const s = await signInAs(ctx.app);
    const spec = await demoDataset('DEMO-002');
    await createUser(serviceDeps(ctx.app), {
      email: 'page-assessor@example.org',
      name: null,
      role: 'assessor',
      password: 'assessor-pass-123',
    });
    const users = (await ctx.app.inject({ url: '/api/users', headers: { cookie: s.cookie } })).json<{
      data: { id: number; email: string }[];
    }>().data;
    const assessorId = users.find((u) => u.email === 'page-assessor@example.org')!.id;
    const opened = await ctx.app.inject({
      method: 'POST',
      url: `/api/bv_specifications/${spec.id}/appraisal`,
      headers: s.headers,
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const round = opened.json<{ round_id: number; version: number }>();
    const assigned = await ctx.app.inject({
      method: 'PUT',
      url: `/api/appraisal_rounds/${round.round_id}/assessors`,
      headers: s.headers,
      payload: { version: round.version, slot: 'A', assessor_id: assessorId },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const id = assigned.json<{ assessors: { appraisal_id: number }[] }>().assessors[0]!.appraisal_id;

    expect((await page(`/appraisals/${id}`)).statusCode).toBe(200);
    expect((await page(`/appraisals/${id}`, { cookie: s.cookie })).statusCode).toBe(200);
    for (const url of ['/appraisals/999999', '/appraisals/abc', '/appraisals/0']) {
      for (const headers of [{}, { cookie: s.cookie }] as Record<string, string>[]) {
        const res = await page(url, headers);
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).toContain('bvdb shell');
      }
    }
    // The appraisal pages that are no record's stay 200.
    for (const url of ['/appraisals', '/appraisals/board', '/appraisals/agreement'])
      expect((await page(url)).statusCode, url).toBe(200);
  });

  it("answers a kept menu's page 200 for its link and 404 for a link no menu has", async () => {
    const s = await signInAs(ctx.app);
    const saved = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/menus',
      headers: s.headers,
      payload: { tests: [{ name: 'Sodium' }] },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const { id } = saved.json<{ id: string }>();
    expect((await page(`/applications/menu/${id}`)).statusCode).toBe(200);
    for (const url of [
      '/applications/menu/AAAAAAAAAAAAAAAAAAAAAA',
      '/applications/menu/not%20a%20link',
      `/applications/menu/${'x'.repeat(101)}`,
    ]) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain('bvdb shell');
    }
    expect((await page('/applications/menu')).statusCode).toBe(200);
  });

  it('answers HEAD as GET, as uptime probes ask: 200 for a page, 404 for none, no body', async () => {
    const known = await ctx.app.inject({ method: 'HEAD', url: '/about', headers: { accept: 'text/html' } });
    expect(known.statusCode).toBe(200);
    expect(known.headers['content-type']).toMatch(/^text\/html/);
    expect(known.body).toBe('');
    const unknown = await ctx.app.inject({ method: 'HEAD', url: '/no-such-page' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/html/);
    expect(unknown.body).toBe('');
    const missing = await ctx.app.inject({ method: 'HEAD', url: '/analytes/999999' });
    expect(missing.statusCode).toBe(404);
  });

  it('keeps the JSON 404 for API paths and for clients that do not ask for HTML', async () => {
    const api = await page('/api/no-such-thing');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    const json = await ctx.app.inject({ url: '/no-such-page', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toMatchObject({ statusCode: 404 });
  });
});
