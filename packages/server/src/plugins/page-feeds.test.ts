import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analytes } from '../db/schema.js';
import { createTestApp, type TestContext } from '../test/test-app.js';

// A built app in miniature, as the web build writes it (see page-status.test.ts).
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bvdb-dist-'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><title>bvdb shell</title></head><body><div id="root"></div></body></html>',
);
fs.writeFileSync(
  path.join(dist, 'page-preloads.json'),
  JSON.stringify({
    visitorData: [],
    everyPageData: [],
    everyPageScripts: [],
    pages: [],
    known: [{ page: '/' }, { page: '/about' }, { page: '/analytes/:id', record: 'measurand' }],
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

/** The Atom feeds a page announces in its head: [title, href]. */
const feedsOf = (html: string) =>
  [
    ...html.matchAll(/<link rel="alternate" type="application\/atom\+xml" title="([^"]+)" href="([^"]+)">/g),
  ].map((m) => [m[1], m[2]]);

describe('feed discovery on pages (issue 30)', () => {
  it("offers the whole database's feed on every page and a measurand's own on its page", async () => {
    const about = await ctx.app.inject({ url: '/about', headers: { accept: 'text/html' } });
    expect(feedsOf(about.body)).toEqual([['Changes to the BV database', '/changes.atom']]);

    const [analyte] = await ctx.database.db.select().from(analytes).where(eq(analytes.id, 1));
    const res = await ctx.app.inject({ url: `/analytes/${analyte!.id}`, headers: { accept: 'text/html' } });
    const feeds = feedsOf(res.body);
    expect(feeds).toEqual([
      ['Changes to the BV database', '/changes.atom'],
      ['Changes to this measurand', `/analytes/${analyte!.id}/changes.atom`],
    ]);
    // The link leads a feed reader to that measurand's Atom feed.
    const feed = await ctx.app.inject({ url: feeds[1]![1]! });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^application\/atom\+xml/);
    expect(feed.body).toContain(`<title>${analyte!.displayName}: changes in the`);
  });
});
