import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/test-app.js';

// A built app in miniature: the shell, one hashed asset and its pre-compressed copies.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-dist-'));
const asset = `console.log(${JSON.stringify('x'.repeat(4000))});`;
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>bvdb shell</title>');
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), asset);
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(asset));
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), zlib.gzipSync(asset));

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ demo: false, env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the built app', () => {
  it('serves hashed assets cached for a year, pre-compressed when the browser accepts it', async () => {
    const br = await ctx.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(asset);

    const plain = await ctx.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': '' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(asset);
  });

  it('answers deep links with the app shell, never cached, and unknown API paths with 404 JSON', async () => {
    const deep = await ctx.app.inject({ url: '/references/12', headers: { accept: 'text/html' } });
    expect(deep.statusCode).toBe(200);
    expect(deep.headers['content-type']).toMatch(/text\/html/);
    expect(deep.headers['cache-control']).toBe('no-cache');
    expect(deep.body).toContain('bvdb shell');

    const api = await ctx.app.inject({ url: '/api/nothing-here', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json<{ message: string }>().message).toMatch(/not found/);
  });

  it('compresses JSON answers on the fly', async () => {
    const res = await ctx.app.inject({
      url: '/api/lookups',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(res.rawPayload).toString())).toHaveProperty('matrices');
  });
});
