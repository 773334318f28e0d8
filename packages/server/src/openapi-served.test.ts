import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './test/test-app.js';

// A built app in miniature: pages and hashed assets the server serves, which are not API.
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-dist-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>bvdb shell</title>');
fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1);');
fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.css'), 'body{}');

const committed = JSON.parse(
  fs.readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'),
) as { paths: Record<string, unknown> };

/**
 * The public API: everything under /api, and the live system's own paths that scripts call
 * (docs/api.md: sign-in, the legacy dataset writes, autocomplete, exports, the upload template),
 * the Atom feeds of changes (issue 30.1), the FHIR operation (decision 087), and the probes.
 */
const API_PREFIXES = [
  '/api/',
  '/healthz',
  '/readyz',
  '/users',
  '/bv_specifications',
  '/autocomplete',
  '/export_by_analyte/',
  '/export_by_reference/',
  '/export/',
  '/templates/',
  '/changes.atom',
  '/analytes/{id}/changes.atom',
  // FHIR R4 for laboratory systems (decision 087).
  '/fhir/',
];

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ demo: false, env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the served OpenAPI document', () => {
  it('lists the API only, the same paths as docs/openapi.json, while the app and its files are served', async () => {
    // The files are served (so they are routes of the server)…
    expect((await ctx.app.inject({ url: '/assets/index-abc123.js' })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/favicon.svg' })).statusCode).toBe(200);
    for (const url of ['/api/openapi.json', '/api/docs/json']) {
      const res = await ctx.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
      // …but not in the document.
      expect(
        paths.filter((p) => /\.(js|css|svg|html|map|png|ico|woff2?)$/.test(p) || p.startsWith('/assets/')),
        url,
      ).toEqual([]);
      expect(
        paths.filter((p) => !API_PREFIXES.some((prefix) => p.startsWith(prefix))),
        url,
      ).toEqual([]);
      expect(paths.sort(), url).toEqual(Object.keys(committed.paths).sort());
    }
  });
});
