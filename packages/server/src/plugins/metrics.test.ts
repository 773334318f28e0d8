import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig, type TestContext } from '../test/test-app.js';
import { bearerMatches } from './metrics.js';

// GET /metrics (issue 28, point 5) and the X-Request-Id of every answer (point 6), over real
// connections where the fast read path matters (it answers before Fastify; `inject` never reaches it).

function get(base: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      http
        .get(base + path, { headers, agent: false }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        })
        .on('error', reject);
    },
  );
}

async function listen(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** The value of one sample line of the exposition, e.g. `name{label="x"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const TOKEN = 'metrics-token-0123456789';

describe('/metrics, off by default', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ demo: false });
  });
  afterAll(async () => ctx.close());

  it('is an unknown path (404) unless METRICS=on', async () => {
    const res = await ctx.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('bvdb_');
    expect(ctx.app.metrics).toBeNull();
  });
});

describe('/metrics with METRICS=on', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { METRICS: 'on' } });
    base = await listen(ctx);
  });
  afterAll(async () => ctx.close());

  it('answers Prometheus text, every name prefixed bvdb_, with the operational series', async () => {
    await ctx.app.inject({ url: '/healthz' });
    const res = await ctx.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    const names = [...res.body.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((n) => !n.startsWith('bvdb_'))).toEqual([]);
    for (const name of [
      'bvdb_http_request_duration_seconds',
      'bvdb_read_cache_hits_total',
      'bvdb_read_cache_misses_total',
      'bvdb_recompute_queue_depth',
      'bvdb_recompute_requests_total',
      'bvdb_recompute_batch_duration_seconds',
      'bvdb_password_hash_admitted',
      'bvdb_password_hash_running',
      'bvdb_password_hash_refused_total',
      'bvdb_nodejs_eventloop_lag_p99_seconds',
      'bvdb_database_info',
    ])
      expect(names, name).toContain(name);
    expect(
      sample(
        res.body,
        'bvdb_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}',
      ),
    ).toBe(1);
    const engine = ctx.database.kind;
    expect(sample(res.body, `bvdb_database_info{engine="${engine}"}`)).toBe(1);
    // PostgreSQL: the pool's use; PGlite has one connection in the process and no pool to report.
    expect(names.includes('bvdb_db_pool_connections')).toBe(engine === 'postgres');
    if (engine === 'postgres') {
      expect(sample(res.body, 'bvdb_db_pool_connections')).toBeGreaterThan(0);
      expect(sample(res.body, 'bvdb_db_pool_waiting_requests')).toBe(0);
    }
  });

  it("counts the fast read path's answers by route and status, and its replays as cache hits", async () => {
    const url = '/api/analytes_with_bv_specifications';
    const metricsText = async () => (await ctx.app.inject({ url: '/metrics' })).body;
    const route =
      'bvdb_http_request_duration_seconds_count{method="GET",route="/api/analytes_with_bv_specifications",status="200"}';
    const before = await metricsText();
    const countBefore = sample(before, route) ?? 0;
    const fastBefore = sample(before, 'bvdb_read_cache_hits_total{path="fast"}') ?? 0;
    const replayedBefore = ctx.app.fastReads.replayed;
    for (let i = 0; i < 4; i++) expect((await get(base, url)).status).toBe(200);
    const replayed = ctx.app.fastReads.replayed - replayedBefore;
    expect(replayed).toBeGreaterThan(0); // the later ones went the fast way
    const after = await metricsText();
    expect(sample(after, route)).toBe(countBefore + 4);
    expect(sample(after, 'bvdb_read_cache_hits_total{path="fast"}')).toBe(fastBefore + replayed);
    expect(sample(after, 'bvdb_read_cache_misses_total')).toBeGreaterThan(0);
  });

  it('counts an unknown path as unmatched or as the page fallback, never by its raw URL', async () => {
    await ctx.app.inject({ url: '/api/no-such-thing-12345' });
    const text = (await ctx.app.inject({ url: '/metrics' })).body;
    expect(text).not.toContain('no-such-thing-12345');
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ demo: false, env: { METRICS: 'on', METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => ctx.close());

  it('answers 401 without the bearer token or with a wrong one, 200 with it', async () => {
    const none = await ctx.app.inject({ url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.json<{ message: string }>().message).toMatch(/METRICS_TOKEN/);
    expect(none.body).not.toContain('bvdb_http');
    for (const authorization of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      'Bearer ',
      `Basic ${TOKEN}`,
    ]) {
      const res = await ctx.app.inject({ url: '/metrics', headers: { authorization } });
      expect({ authorization, status: res.statusCode }).toEqual({ authorization, status: 401 });
    }
    const ok = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('bvdb_http_request_duration_seconds');
  });

  it('compares the token whole', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches('Bearer', TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.toUpperCase()}`, TOKEN)).toBe(false);
  });

  it('takes the scheme in any case, the token in its own (RFC 7235: the scheme is case-insensitive)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      expect(bearerMatches(`${scheme} ${TOKEN}`, TOKEN)).toBe(true);
      const res = await ctx.app.inject({ url: '/metrics', headers: { authorization: `${scheme} ${TOKEN}` } });
      expect(res.statusCode, scheme).toBe(200);
    }
    expect(bearerMatches(`Bearer  ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer${TOKEN}`, TOKEN)).toBe(false);
  });

  it('refuses a token shorter than 16 characters at start', () => {
    expect(() => testConfig({ METRICS: 'on', METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN: must be at least 16 characters/,
    );
  });
});

describe('X-Request-Id', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    base = await listen(ctx);
  });
  afterAll(async () => ctx.close());

  it('is on every error answer, and on a success only when the client sent one (decision 089)', async () => {
    for (const [url, status] of [
      ['/api/analytes/999999', 404],
      ['/api/analytes/not-a-number', 400],
      ['/api/users', 401],
    ] as const) {
      const res = await get(base, url);
      expect({ url, status: res.status }).toEqual({ url, status });
      expect(res.headers['x-request-id'], url).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
    }
    const ok = await get(base, '/healthz');
    expect(ok.status).toBe(200);
    expect(ok.headers['x-request-id']).toBeUndefined();
  });

  it('is unique per request and carries a random per-process prefix, so restarts and replicas differ', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => get(base, '/api/analytes/999999')));
    const seen = new Set(ids.map((r) => r.headers['x-request-id']));
    expect(seen.size).toBe(20);
    const prefixOf = (id: unknown) => String(id).slice(0, String(id).lastIndexOf('-'));
    const prefixes = new Set([...seen].map(prefixOf));
    expect(prefixes.size).toBe(1);
    // Another process has another prefix.
    const { execFileSync } = await import('node:child_process');
    const other = execFileSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { RecentRequests } from ${JSON.stringify(new URL('../lib/recent-requests.ts', import.meta.url).pathname)}; console.log(new RecentRequests().genReqId());`,
      ],
      { encoding: 'utf8' },
    ).trim();
    expect(other).toMatch(/^[\w-]{8}-1$/);
    expect(prefixes.has(prefixOf(other))).toBe(false);
  });

  it('keeps an acceptable incoming id and replaces one too long or with unsafe characters', async () => {
    const kept = await get(base, '/healthz', { 'x-request-id': 'proxy-7f3a:trace/42' });
    expect(kept.headers['x-request-id']).toBe('proxy-7f3a:trace/42');
    const uuid = '0b6b2f4e-3c1d-4c5a-9a43-2f1f5f0c9d11';
    expect((await get(base, '/healthz', { 'x-request-id': uuid })).headers['x-request-id']).toBe(uuid);
    for (const bad of ['x'.repeat(129), 'has space', 'quote"d', 'new\\nline', '']) {
      const res = await get(base, '/healthz', { 'x-request-id': bad });
      expect(res.headers['x-request-id'], bad).not.toBe(bad);
      expect(res.headers['x-request-id']).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
    }
  });

  it('is sent by the fast read path only when the client sent one, an incoming one kept', async () => {
    const url = '/api/meta';
    const replayedBefore = ctx.app.fastReads.replayed;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(base, url));
    expect(ctx.app.fastReads.replayed).toBeGreaterThan(replayedBefore);
    for (const a of answers) expect(a.headers['x-request-id']).toBeUndefined();
    const before = ctx.app.fastReads.replayed;
    const given = await get(base, url, { 'x-request-id': 'lb-req-001' });
    expect(ctx.app.fastReads.replayed).toBe(before + 1);
    const unsafe = await get(base, url, { 'x-request-id': 'has space' });
    expect(ctx.app.fastReads.replayed).toBe(before + 2);
    expect(unsafe.headers['x-request-id']).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
    expect(given.headers['x-request-id']).toBe('lb-req-001');
  });
});
