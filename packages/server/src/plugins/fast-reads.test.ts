import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../test/sign-in.js';
import { buildApp } from '../app.js';
import { admitHashing, HASHING_ADMITTED } from '../lib/password.js';
import { compaction, upgrades } from '../lib/response-cache.js';
import { createTestApp, testConfig, type TestContext } from '../test/test-app.js';

// The fast read path (decision 041) over real connections: the pages' own reads and `inject` never
// reach it, so these tests listen on a port.

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(base: string, path: string, headers: Record<string, string | string[]> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(base + path, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

function post(base: string, path: string, payload: unknown, headers: Record<string, string> = {}) {
  const body = JSON.stringify(payload);
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      base + path,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The headers of an answer without those set per request. */
function steady(headers: http.IncomingHttpHeaders): Record<string, unknown> {
  const {
    date: _d,
    'x-ratelimit-remaining': _r,
    'x-ratelimit-reset': _t,
    'x-request-id': _i,
    ...rest
  } = headers;
  return rest;
}

async function listen(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('fast read path', () => {
  let ctx: TestContext;
  let base: string;
  const replayed = () => ctx.app.fastReads.replayed;

  beforeAll(async () => {
    ctx = await createTestApp();
    base = await listen(ctx);
  });
  afterAll(async () => ctx.close());

  it('replays a kept public answer with the same status, headers and bytes, counted by the rate limit', async () => {
    const first = await get(base, '/api/meta');
    const before = replayed();
    const second = await get(base, '/api/meta');
    expect(replayed()).toBe(before + 1);
    expect(second.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(steady(second.headers)).toEqual(steady(first.headers));
    expect(second.headers['x-content-type-options']).toBe('nosniff');
    expect(second.headers.etag).toMatch(/^W\/"/);
  });

  it('sends a kept public JSON read with only the headers decision 089 lists, the full way and replayed', async () => {
    const path = '/api/meta_calculations';
    // The ask that starts a whole catalogue's build gets it streamed as it is made (decision 085).
    await get(base, path, { 'accept-encoding': 'br, gzip', accept: 'application/json' });
    await upgrades.idle();
    const full = await get(base, path, { 'accept-encoding': 'br, gzip', accept: 'application/json' });
    // The kept copy replaces the quick first one (decision 069); the next full answer is recorded.
    await upgrades.idle();
    await get(base, path, { 'accept-encoding': 'br, gzip', accept: 'application/json' });
    const before = replayed();
    const replay = await get(base, path, { 'accept-encoding': 'br, gzip', accept: 'application/json' });
    expect(replayed()).toBe(before + 1);
    const expected = [
      'cache-control',
      'connection',
      'content-encoding',
      'content-length',
      'content-type',
      'date',
      'etag',
      'vary',
      'x-content-type-options',
    ];
    for (const answer of [full, replay]) {
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.headers).sort()).toEqual(expected);
      // CORS reflects the caller's Origin, so a cache must key on both (decision 089).
      expect(answer.headers.vary).toBe('Origin, Accept-Encoding');
      expect(answer.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    }
    // A small answer (under the 1 KB compression threshold) is the same bytes for every encoding: no Vary on it.
    await get(base, '/api/meta');
    const small = await get(base, '/api/meta');
    expect(Object.keys(small.headers).filter((h) => h.startsWith('x-'))).toEqual(['x-content-type-options']);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(String(small.headers.vary ?? '')).not.toMatch(/accept-encoding/i);
  });

  it('answers 304 to If-None-Match, and replays that too', async () => {
    const { headers } = await get(base, '/api/meta');
    const etag = String(headers.etag);
    const first = await get(base, '/api/meta', { 'if-none-match': etag });
    const before = replayed();
    const second = await get(base, '/api/meta', { 'if-none-match': etag });
    expect([first.status, second.status]).toEqual([304, 304]);
    expect(replayed()).toBe(before + 1);
    expect(second.body.length).toBe(0);
    expect(steady(second.headers)).toEqual(steady(first.headers));
    // A stale ETag gets the body.
    expect((await get(base, '/api/meta', { 'if-none-match': 'W/"old"' })).status).toBe(200);
  });

  it('replays a kept record only once its gzip copy is made, then that copy (decision 106)', async () => {
    const path = '/api/v1/datasets/1';
    const accepting = { 'accept-encoding': 'gzip' };
    const before = replayed();
    // Kept by the first ask, sent as built while its gzip copy is made in the background.
    const first = await get(base, path, accepting);
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBeUndefined();
    await compaction.idle();
    const full = await get(base, path, accepting);
    expect(replayed()).toBe(before);
    const replay = await get(base, path, accepting);
    expect(replayed()).toBe(before + 1);
    for (const answer of [full, replay]) {
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(answer.body).equals(first.body)).toBe(true);
      expect(answer.headers.etag).toBe(first.headers.etag);
    }
  });

  it('keeps as many replays as the response cache keeps answers: a long pass is replayed from its second ask (decision 110)', async () => {
    // 4,200 raw URLs of one record (a query the route does not read: one kept answer, 4,200 keys),
    // more than the 4,000 the fast path kept before, whatever the records pool held.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
    const ask = (i: number) =>
      new Promise<number>((resolve, reject) => {
        http
          .get(`${base}/api/v1/datasets/2?pass=${i}`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          })
          .on('error', reject);
      });
    // Kept, and its gzip copy made (a record is replayed once it is sent with it, decision 106).
    await get(base, '/api/v1/datasets/2');
    await compaction.idle();
    for (let i = 0; i < 4200; i += 100) {
      const statuses = await Promise.all(Array.from({ length: 100 }, (_, k) => ask(i + k)));
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    const before = replayed();
    expect(await ask(0)).toBe(200);
    expect(replayed()).toBe(before + 1);
    agent.destroy();
  });

  it('never gives one Accept-Encoding the bytes kept for another', async () => {
    const path = '/api/matrices';
    const gzip = await get(base, path, { 'accept-encoding': 'gzip' });
    await get(base, path, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const before = replayed();
    const plain = await get(base, path);
    expect(replayed()).toBe(before);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toHaveProperty('matrices');
    const br = await get(base, path, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(replayed()).toBe(before);
  });

  it('replays a quick first copy until its kept copy is made, which the replay asks for, then the kept copy (decision 108)', async () => {
    // Decision 069: a page of 100 is first sent quickly compressed. Its second ask is replayed from
    // that copy and queues the kept one (as a second ask on the full path does); once the kept copy
    // is made the replay of the larger one ends and the full path records the kept one.
    const path = '/api/v1/datasets?limit=100&offset=11';
    const br = { 'accept-encoding': 'br' };
    const first = await get(base, path, br);
    const page = zlib.brotliDecompressSync(first.body);
    const before = replayed();
    const second = await get(base, path, br);
    expect(replayed()).toBe(before + 1);
    expect(second.body.equals(first.body)).toBe(true);
    await upgrades.idle();
    const upgraded = await get(base, path, br);
    expect(replayed()).toBe(before + 1);
    const replay = await get(base, path, br);
    expect(replayed()).toBe(before + 2);
    expect(replay.body.equals(upgraded.body)).toBe(true);
    expect(upgraded.body.length).toBeLessThan(first.body.length);
    expect(
      upgraded.body.equals(
        zlib.brotliCompressSync(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 } }),
      ),
    ).toBe(true);
    expect(Number(replay.headers['content-length'])).toBe(replay.body.length);
    expect(replay.headers.etag).toBe(first.headers.etag);
  });

  it('replays a page stitched as gzip to a reader preferring br until its br copy is made (decisions 107, 108)', async () => {
    const path = '/api/v1/datasets?limit=100&offset=23';
    const both = { 'accept-encoding': 'br, gzip' };
    const first = await get(base, path, both);
    expect(first.headers['content-encoding']).toBe('gzip');
    const page = zlib.gunzipSync(first.body);
    const before = replayed();
    const second = await get(base, path, both);
    expect(replayed()).toBe(before + 1);
    expect(second.headers['content-encoding']).toBe('gzip');
    expect(second.body.equals(first.body)).toBe(true);
    // The replay queued the br copy; once made, the full path sends it and it is replayed.
    await upgrades.idle();
    const br = await get(base, path, both);
    expect(replayed()).toBe(before + 1);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(page)).toBe(true);
    const replay = await get(base, path, both);
    expect(replayed()).toBe(before + 2);
    expect(replay.headers['content-encoding']).toBe('br');
    expect(replay.body.equals(br.body)).toBe(true);
  });

  it('sends a middling answer a quick copy made on the loop, and the kept copy once it is asked again (decision 076)', async () => {
    // Between 8 and 64 KB: brotli quality 1 on the event loop for the first ask (a fifth of quality
    // 6's time); an answer asked again gets quality 6, made in the background and sent from then on.
    const path = '/api/v1/datasets?limit=5&offset=7';
    const br = { 'accept-encoding': 'br' };
    const quality = (q: number, bytes: Buffer) =>
      zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: q } });
    const first = await get(base, path, br);
    const page = zlib.brotliDecompressSync(first.body);
    expect(page.length).toBeGreaterThan(8 * 1024);
    expect(page.length).toBeLessThan(64 * 1024);
    expect(first.body.equals(quality(1, page))).toBe(true);
    // Asked once, nothing more is made: most queries are never asked again.
    await upgrades.idle();
    const second = await get(base, path, br);
    expect(second.body.equals(first.body)).toBe(true);
    await upgrades.idle();
    const kept = await get(base, path, br);
    expect(kept.body.equals(quality(6, page))).toBe(true);
    expect(kept.body.length).toBeLessThan(first.body.length);
    expect(kept.headers.etag).toBe(first.headers.etag);
    const replay = await get(base, path, br);
    expect(replay.body.equals(kept.body)).toBe(true);
  });

  it('keys by the raw URL: a query that normalises differently gets its own answer', async () => {
    const so = await get(base, '/autocomplete?query=so');
    await get(base, '/autocomplete?query=so');
    const cre = await get(base, '/autocomplete?query=cre');
    const expected = await ctx.app.inject({ url: '/autocomplete?query=cre' });
    expect(cre.body.toString()).toBe(expected.body);
    expect(cre.body.equals(so.body)).toBe(false);
    const before = replayed();
    // Unknown parameters reach the same kept answer, through the full path first.
    const tagged = await get(base, '/autocomplete?query=so&utm_source=x');
    expect(replayed()).toBe(before);
    expect(tagged.body.equals(so.body)).toBe(true);
  });

  it('reads header names in any case, and keys a capitalised Accept-Encoding apart from another encoding (decision 111)', async () => {
    const path = '/api/references';
    await get(base, path, { 'Accept-Encoding': 'gzip' });
    await upgrades.idle();
    const kept = await get(base, path, { 'Accept-Encoding': 'gzip' });
    const before = replayed();
    const again = await get(base, path, { 'ACCEPT-ENCODING': 'gzip' });
    expect(replayed()).toBe(before + 1);
    expect(again.headers['content-encoding']).toBe('gzip');
    expect(again.body.equals(kept.body)).toBe(true);
    const br = await get(base, path, { 'Accept-Encoding': 'br' });
    expect(replayed()).toBe(before + 1);
    expect(br.headers['content-encoding']).toBe('br');
  });

  it('answers a request repeating a header it reads the full way, every time (decision 111)', async () => {
    const path = '/api/meta';
    const once = await get(base, path, { accept: 'application/json' });
    await get(base, path, { accept: 'application/json' });
    const before = replayed();
    // Two Accept lines: Node joins them; the fast path never guesses how.
    const twice = await get(base, path, { accept: ['application/json', 'text/plain'] });
    await get(base, path, { accept: ['application/json', 'text/plain'] });
    expect(replayed()).toBe(before);
    expect(twice.status).toBe(200);
    expect(twice.body.equals(once.body)).toBe(true);
  });

  it('reflects each Origin in CORS, never another one’s', async () => {
    const a = await get(base, '/api/meta', { origin: 'https://a.example' });
    await get(base, '/api/meta', { origin: 'https://a.example' });
    const before = replayed();
    const b = await get(base, '/api/meta', { origin: 'https://b.example' });
    expect(a.headers['access-control-allow-origin']).toBe('https://a.example');
    expect(b.headers['access-control-allow-origin']).toBe('https://b.example');
    expect(replayed()).toBe(before);
  });

  it('keeps Vary: Origin beside Accept-Encoding on a compressed cross-origin read, so a cache never mixes origins', async () => {
    const path = '/api/meta_calculations';
    const headers = { origin: 'https://lab.example', 'accept-encoding': 'gzip' };
    await get(base, path, headers);
    await upgrades.idle();
    for (const answer of [await get(base, path, headers), await get(base, path, headers)]) {
      expect(answer.headers['content-encoding']).toBe('gzip');
      expect(answer.headers['access-control-allow-origin']).toBe('https://lab.example');
      const vary = String(answer.headers.vary)
        .split(',')
        .map((name) => name.trim().toLowerCase());
      expect(vary).toEqual(expect.arrayContaining(['origin', 'accept-encoding']));
    }
  });

  it('never replays to a signed-in reader, whose answers may differ', async () => {
    await get(base, '/api/meta');
    const session = await signInAs(ctx.app);
    const before = replayed();
    const mine = await get(base, '/api/meta', { cookie: session.cookie });
    expect(replayed()).toBe(before);
    expect(mine.headers['cache-control']).toBe('private, no-store');
  });

  it('stops replaying an answer as soon as a write changes what it reads', async () => {
    const path = '/api/lookups';
    const first = await get(base, path);
    await get(base, path);
    ctx.app.deps.cache.invalidate(['lookups']);
    const before = replayed();
    const after = await get(base, path);
    expect(replayed()).toBe(before);
    expect(after.body.equals(first.body)).toBe(true);
    await get(base, path);
    expect(replayed()).toBe(before + 1);
  });

  it('replays a whole-catalogue answer kept in memory, byte for byte', async () => {
    const path = '/api/meta_calculations';
    // Not the ask that starts the build: that one is streamed (decision 085).
    await get(base, path, { 'accept-encoding': 'br' });
    await upgrades.idle();
    const first = await get(base, path, { 'accept-encoding': 'br' });
    const before = replayed();
    const second = await get(base, path, { 'accept-encoding': 'br' });
    expect(replayed()).toBe(before + 1);
    expect(second.headers['content-encoding']).toBe('br');
    expect(second.body.equals(first.body)).toBe(true);
    expect(steady(second.headers)).toEqual(steady(first.headers));
  });
});

describe('busy refusals of a sign-in flood', () => {
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    ctx = await createTestApp({ demo: false });
    base = await listen(ctx);
  });
  afterAll(async () => ctx.close());

  it('replays the 503 of a full hashing queue as sent, and stops as soon as the queue has room', async () => {
    const signIn = () =>
      post(
        base,
        '/users/sign_in',
        { email: 'flood@example.org', password: 'wrong-password-1' },
        { origin: base },
      );
    const tickets = Array.from({ length: HASHING_ADMITTED }, () => admitHashing());
    let first: Answer;
    let second: Answer;
    let before: number;
    try {
      first = await signIn();
      before = ctx.app.fastReads.refused;
      second = await signIn();
    } finally {
      for (const ticket of tickets) ticket.release();
    }
    expect([first.status, second.status]).toEqual([503, 503]);
    expect(ctx.app.fastReads.refused).toBe(before + 1);
    expect(second.body.equals(first.body)).toBe(true);
    expect(steady(second.headers)).toEqual(steady(first.headers));
    expect(second.headers['retry-after']).toBe('5');
    const after = await signIn();
    expect(after.status).toBe(401);
    expect(ctx.app.fastReads.refused).toBe(before + 1);
  });
});

describe('fast read path and the rate limit', () => {
  let ctx: TestContext;
  let base: string;

  beforeAll(async () => {
    ctx = await createTestApp({ demo: false, env: { RATE_LIMIT_PER_MINUTE: '4' } });
    base = await listen(ctx);
  });
  afterAll(async () => ctx.close());

  it('counts replays in the same counter, and the full path answers the 429', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await get(base, '/api/meta'));
    expect(ctx.app.fastReads.replayed).toBeGreaterThan(0);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429]);
    // The allowance only once half of it is used (decision 089), the replays too; a 429 always.
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual([undefined, '2', '1', '0', '0']);
    expect(answers[3]!.headers['x-ratelimit-limit']).toBe('4');
    expect(JSON.parse(answers[4]!.body.toString()).message).toMatch(/at most 4 a minute/);
    expect(Number(answers[4]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(answers[4]!.headers['x-ratelimit-limit']).toBe('4');
  });
});

describe('ETags', () => {
  it('are the same on every process for the same data', async () => {
    const one = await createTestApp();
    // A second server on the same database, as two processes on one PostgreSQL.
    const two = await buildApp({ config: testConfig(), database: one.database });
    try {
      const a = await listen(one);
      await two.listen({ port: 0, host: '127.0.0.1' });
      const address = two.server.address();
      const b = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      for (const path of ['/api/meta', '/api/matrices', '/api/meta_calculations']) {
        // Each process's first ask of a whole catalogue streams it, without an ETag (decision 085).
        await Promise.all([get(a, path), get(b, path)]);
        const [x, y] = await Promise.all([get(a, path), get(b, path)]);
        expect(x.headers.etag).toMatch(/^W\/"/);
        expect(x.headers.etag).toBe(y.headers.etag);
      }
    } finally {
      await two.close();
      await one.close();
    }
  });
});
