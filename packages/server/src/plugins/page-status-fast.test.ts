import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bvSpecifications } from '../db/schema.js';
import { createTestApp, type TestContext } from '../test/test-app.js';

// A record page rendered on the server and kept, so the fast read path (decision 041), which
// answers before Fastify routes a request, replays it: it must not replay it once the record is
// gone. The fast path is on the HTTP server's request event, which `inject` does not reach: listen.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-page-fast-'));
const dist = path.join(root, 'dist');
fs.mkdirSync(dist, { recursive: true });
fs.mkdirSync(`${dist}-ssr`);
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><title>bvdb</title></head><body><div id="root"></div></body></html>',
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
    everyPageScripts: [],
    pages: [{ page: '/bv_specifications/:id', scripts: [], data: [], ssr: true }],
    known: [{ page: '/bv_specifications/:id', record: 'dataset' }],
  }),
);

let ctx: TestContext;
let base: string;
beforeAll(async () => {
  ctx = await createTestApp({ env: { WEB_DIST: dist } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const visit = async (url: string) => {
  const res = await fetch(`${base}${url}`, { headers: { accept: 'text/html' } });
  return { status: res.status, body: await res.text() };
};

describe('a kept record page and the fast read path', () => {
  it('is replayed while the record is there, and answers 404 (never replayed) once it is not', async () => {
    const [spec] = await ctx.database.db
      .select()
      .from(bvSpecifications)
      .where(eq(bvSpecifications.uniqueIdentifier, 'DEMO-002'));
    const url = `/bv_specifications/${spec!.id}`;
    const replayed = () => ctx.app.fastReads.replayed;

    const first = await visit(url);
    expect(first.status).toBe(200);
    expect(first.body).toContain(`Rendered ${url}`);
    const before = replayed();
    expect((await visit(url)).status).toBe(200);
    expect(replayed()).toBe(before + 1);

    await ctx.database.db
      .update(bvSpecifications)
      .set({ published: false })
      .where(eq(bvSpecifications.id, spec!.id));
    ctx.app.deps.cache.invalidate();
    for (let i = 0; i < 2; i++) {
      const gone = await visit(url);
      expect(gone.status).toBe(404);
      expect(gone.body).not.toContain('Rendered');
    }
    expect(replayed()).toBe(before + 1);
  });
});
