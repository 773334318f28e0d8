import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/test-app.js';

// A built app in miniature: the shell, the preload manifest and a renderer beside it (`dist-ssr`).
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-ssr-'));
const dist = path.join(root, 'dist');
fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
fs.mkdirSync(`${dist}-ssr`);
fs.writeFileSync(
  path.join(dist, 'index.html'),
  // Padded to a real shell's size (over the 1 KB below which answers go uncompressed).
  `<!doctype html><html><head><title>bvdb</title><!--${'x'.repeat(2000)}--></head><body><div id="root"></div></body></html>`,
);
fs.copyFileSync(
  new URL('../test/fixtures/entry-server.mjs', import.meta.url),
  path.join(`${dist}-ssr`, 'entry-server.js'),
);
fs.writeFileSync(
  path.join(dist, 'page-preloads.json'),
  JSON.stringify({
    visitorData: ['/api/session'],
    everyPageData: ['/api/site'],
    everyPageScripts: ['/assets/start-1.js'],
    pages: [
      { page: '/analytes/:id', scripts: ['/assets/analyte-1.js'], data: ['/api/analytes/:id'], ssr: true },
      { page: '/plain', scripts: [], data: [], ssr: false },
    ],
  }),
);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ demo: false, env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ url, headers: { accept: 'text/html', ...headers } });
const renderCount = (body: string) => /render (\d+)/.exec(body)?.[1];

describe('server-rendered pages', () => {
  it('answers an anonymous visit with the page rendered from real API answers, its state and its code', async () => {
    const res = await page('/analytes/1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toMatch(/Cookie/);
    expect(res.body).toContain('<div id="root"><h1>Rendered /analytes/1</h1><p id="status">200</p>');
    const state = /<script id="bvdb-state" type="application\/json">(.*?)<\/script>/.exec(res.body)?.[1];
    expect(JSON.parse(state!)).toHaveProperty('site.citation');
    // The page fetches its code once painted, all at once: the list is in the page.
    const scripts = /<script id="bvdb-scripts" type="application\/json">(.*?)<\/script>/.exec(res.body)?.[1];
    expect(JSON.parse(scripts!)).toEqual(['/assets/start-1.js', '/assets/analyte-1.js']);
    // The visitor's own answer is still preloaded; the page's data is in the HTML, not fetched again.
    expect(res.body).toContain('<link rel="preload" as="fetch" crossorigin href="/api/session">');
    expect(res.body).not.toContain('href="/api/analytes/1"');
    expect(res.body).not.toContain('rel="modulepreload"');
  });

  it('renders a page once per data generation, with an ETag and compressed copies', async () => {
    const first = await page('/analytes/2');
    const again = await page('/analytes/2', { 'accept-encoding': 'br' });
    expect(again.headers['content-encoding']).toBe('br');
    const body = zlib.brotliDecompressSync(again.rawPayload).toString();
    expect(renderCount(body)).toBe(renderCount(first.body));
    const revalidated = await page('/analytes/2', { 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);

    ctx.app.deps.cache.invalidate(); // what every committed write does
    const afterWrite = await page('/analytes/2');
    expect(Number(renderCount(afterWrite.body))).toBeGreaterThan(Number(renderCount(first.body)));
  });

  it('does not keep a page whose reads failed', async () => {
    const a = await page('/analytes/partial');
    const b = await page('/analytes/partial');
    expect(a.body).toContain('Rendered /analytes/partial');
    expect(renderCount(b.body)).not.toBe(renderCount(a.body));
  });

  it('sends the shell with every preload to a signed-in visitor, whose pages are their own', async () => {
    const res = await page('/analytes/1', { cookie: 'bvdb_session=someone' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary).toMatch(/Cookie/);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain('bvdb-state');
    expect(res.body).toContain('<link rel="preload" as="fetch" crossorigin href="/api/analytes/1">');
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/analyte-1.js">');
  });

  it('falls back to the shell when rendering fails, the page is not rendered or its state is too big', async () => {
    for (const url of ['/analytes/boom', '/analytes/redirect', '/analytes/huge', '/plain', '/elsewhere']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root"></div>');
      expect(res.body, url).not.toContain('bvdb-state');
    }
  });

  it('keeps a page param out of the markup except percent-encoded', async () => {
    const res = await page('/analytes/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E', {
      cookie: 'bvdb_session=someone',
    });
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).toContain('href="/api/analytes/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E"');
  });
});
