import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs, type SignedIn } from '../test/sign-in.js';
import { createTestApp, type TestContext } from '../test/test-app.js';

// Every download (article PDFs and exports) shares one budget (decision 035): with a budget of
// 1 MB/s, two seconds of burst and then the rate, however many download at once.
let ctx: TestContext;
let s: SignedIn;
let articleUrl: string;
const article = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(1_500_000)]);

beforeAll(async () => {
  ctx = await createTestApp({ env: { DOWNLOADS_MB_PER_SECOND: '1' } });
  s = await signInAs(ctx.app);
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/api/references',
    payload: { title: 'A paced article', author: 'Pace, A.' },
    headers: s.headers,
  });
  const id = created.json<{ reference: { id: number } }>().reference.id;
  const boundary = 'bvdbbudget';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    article,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const up = await ctx.app.inject({
    method: 'POST',
    url: `/api/references/${id}/file`,
    payload,
    headers: { ...s.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(up.statusCode, up.body).toBe(200);
  articleUrl = `/api/references/${id}/file`;
});
afterAll(async () => ctx.close());

/**
 * Waits until the downloads under way have spent the burst (a slice reserved now would wait): then
 * whatever is asked next must take its turn, however slowly the machine started them (a fixed pause
 * was not enough under load). Each download has one slice reserved at a time, so the debt stays small.
 */
async function burstSpent() {
  const budget = ctx.app.deps.downloads;
  for (let waited = 0; budget.backlogMs <= 0; waited += 2) {
    if (waited > 20_000) throw new Error('the downloads never spent the burst');
    await new Promise((r) => setTimeout(r, 2));
  }
}

const timed = async (url: string) => {
  const t = Date.now();
  const res = await ctx.app.inject({ url });
  return { res, ms: Date.now() - t };
};

describe('the shared download budget, through the routes', () => {
  it('sends article downloads together at the budget: three 1.5 MB at once end after ~2.5 s, each whole', async () => {
    // 4.5 MB at 1 MB/s after 2 MB of burst: the last byte ~2.5 s later, whichever download the burst
    // served first. Paced one by one (1 MB/s each), all three would end after ~0 s; unpaced too.
    const three = await Promise.all([timed(articleUrl), timed(articleUrl), timed(articleUrl)]);
    for (const { res } of three) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-length']).toBe(String(article.length));
      expect(res.rawPayload.equals(article)).toBe(true);
    }
    const last = Math.max(...three.map((t) => t.ms));
    expect(last).toBeGreaterThanOrEqual(2_000);
    expect(last).toBeLessThan(6_000);
  });

  it('makes an export wait its turn behind article downloads, and still sends it whole', async () => {
    // Build the export once (kept), let the burst refill, then spend it on three articles: the kept
    // export that follows has to wait for its turn.
    expect((await ctx.app.inject({ url: '/export/bv_database.xlsx' })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 2_100));
    const articles = Promise.all([timed(articleUrl), timed(articleUrl), timed(articleUrl)]);
    await burstSpent();
    const exported = await timed('/export/bv_database.xlsx');
    expect(exported.res.statusCode).toBe(200);
    expect(exported.res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(exported.res.headers['content-length']).toBe(String(exported.res.rawPayload.length));
    // Kept and unpaced it leaves in a few ms; behind three articles at 1 MB/s each of its 64 KiB
    // slices waits for theirs (~64 ms apiece). The wait, not its exact length, is what is checked:
    // on PostgreSQL the kept file is no longer rebuilt by a first poll, so only the queue counts.
    expect(exported.ms).toBeGreaterThanOrEqual(150);
    await articles;
  });

  it('sends a small kept catalogue answer at once behind downloads, and paces a large one (decision 051)', async () => {
    // Both kept first; then the burst refills and three articles spend it.
    const small = '/api/meta_calculations'; // ~30 KB plain at the demo size: one slice
    const large = '/api/bv_specifications'; // ~700 KB plain: a download
    expect((await ctx.app.inject({ url: small })).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: large })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 2_100));
    const articles = Promise.all([timed(articleUrl), timed(articleUrl), timed(articleUrl)]);
    await burstSpent();
    const [cheap, download] = await Promise.all([timed(small), timed(large)]);
    expect(cheap.res.statusCode).toBe(200);
    expect(Number(cheap.res.headers['content-length'])).toBeLessThanOrEqual(64 * 1024);
    // Paced, it would have waited its turn like the large one; at once, it takes a read's time.
    expect(cheap.ms).toBeLessThan(download.ms);
    expect(download.res.statusCode).toBe(200);
    expect(Number(download.res.headers['content-length'])).toBeGreaterThan(64 * 1024);
    expect(download.res.rawPayload.length).toBe(Number(download.res.headers['content-length']));
    expect(download.ms).toBeGreaterThanOrEqual(150);
    await articles;
  });

  it('spends none of the budget on a HEAD, which sends no body', async () => {
    const budget = ctx.app.deps.downloads;
    const reserve = budget.reserve.bind(budget);
    let reserved = 0;
    budget.reserve = (bytes) => ((reserved += bytes), reserve(bytes));
    try {
      const head = await ctx.app.inject({ method: 'HEAD', url: '/export/bv_database.xlsx' });
      expect(head.statusCode).toBe(200);
      expect(Number(head.headers['content-length'])).toBeGreaterThan(1000);
      expect(reserved).toBe(0);
      expect((await ctx.app.inject({ url: '/export/bv_database.xlsx' })).statusCode).toBe(200);
      expect(reserved).toBeGreaterThan(1000);
    } finally {
      budget.reserve = reserve;
    }
  });
});
