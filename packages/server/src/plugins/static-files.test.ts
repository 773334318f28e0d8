import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStaticFiles, registerStaticFiles } from './static-files.js';

// A build in miniature: a hashed asset with its compressed copies, a small file without, an image.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-static-'));
const asset = `console.log(${JSON.stringify('y'.repeat(5000))});`;
const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'assets', 'app-h4sh.js'), asset);
fs.writeFileSync(path.join(dist, 'assets', 'app-h4sh.js.br'), zlib.brotliCompressSync(asset));
fs.writeFileSync(path.join(dist, 'assets', 'app-h4sh.js.gz'), zlib.gzipSync(asset));
fs.writeFileSync(path.join(dist, 'favicon.svg'), svg);
fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\n');

/** An app with the files served from memory, or (`limits` of 0) all read from disk. */
async function appWith(limits?: { file: number; total: number }): Promise<FastifyInstance> {
  const app = Fastify();
  registerStaticFiles(app, dist, limits);
  await app.ready();
  return app;
}

let inMemory: FastifyInstance;
let onDisk: FastifyInstance;
beforeAll(async () => {
  inMemory = await appWith();
  onDisk = await appWith({ file: 0, total: 0 });
});
afterAll(async () => {
  await inMemory.close();
  await onDisk.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('static files', () => {
  it('are read once at start: the compressed copies are encodings of their file, not files', () => {
    const files = loadStaticFiles(dist);
    expect([...files.keys()].sort()).toEqual(['/assets/app-h4sh.js', '/favicon.svg', '/robots.txt']);
    expect(files.get('/assets/app-h4sh.js')?.br).toBeInstanceOf(Buffer);
    expect(loadStaticFiles(dist, { file: 0, total: 0 }).get('/assets/app-h4sh.js')?.identity).toBeUndefined();
  });

  for (const [where, app] of [
    ['from memory', () => inMemory],
    ['from disk (past the memory limits)', () => onDisk],
  ] as const) {
    it(`are served ${where} in the encoding the browser takes, with the same headers`, async () => {
      const get = (headers: Record<string, string>) => app().inject({ url: '/assets/app-h4sh.js', headers });
      const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(br.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(asset);

      const gz = await get({ 'accept-encoding': 'gzip, br;q=0' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(asset);

      const plain = await get({ 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(asset)));
      expect(plain.body).toBe(asset);

      const again = await get({ 'if-none-match': br.headers.etag as string });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      const head = await app().inject({ method: 'HEAD', url: '/assets/app-h4sh.js' });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
    });
  }

  it('outside /assets/ are cached for five minutes, typed by their extension', async () => {
    const icon = await inMemory.inject({ url: '/favicon.svg', headers: { 'accept-encoding': 'br' } });
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('public, max-age=300');
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers.vary).toBeUndefined();
    expect(icon.body).toBe(svg);
    expect((await inMemory.inject({ url: '/robots.txt' })).headers['content-type']).toBe(
      'text/plain; charset=utf-8',
    );
    expect((await inMemory.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
  });
});
